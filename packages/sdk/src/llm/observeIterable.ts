/** What an observed stream reports. Hooks must not throw. */
export interface StreamHooks<T> {
  /** Each item; return false to hide it from the caller. */
  item: (value: T) => boolean;
  /** The stream ended by itself. */
  done: () => void;
  /** The stream threw. */
  error: (err: unknown) => void;
  /** The caller stopped reading (break / return). */
  returned: () => void;
}

/**
 * Replaces `stream[Symbol.asyncIterator]` on this one object with one that
 * reports to `hooks` and hands the caller the same items (less those `item`
 * hides). Other methods built on the iterator (`tee`, `toReadableStream`) go
 * through it too.
 */
export function observeIterable<T>(stream: AsyncIterable<T>, hooks: StreamHooks<T>): void {
  const original = stream[Symbol.asyncIterator].bind(stream);
  Object.defineProperty(stream, Symbol.asyncIterator, {
    configurable: true,
    writable: true,
    value: (): AsyncIterator<T> => observeIterator(original(), hooks),
  });
}

function observeIterator<T>(inner: AsyncIterator<T>, hooks: StreamHooks<T>): AsyncIterator<T> {
  return {
    next: async (): Promise<IteratorResult<T>> => {
      for (;;) {
        let result: IteratorResult<T>;
        try {
          result = await inner.next();
        } catch (err) {
          hooks.error(err);
          throw err;
        }
        if (result.done === true) {
          hooks.done();
          return result;
        }
        if (hooks.item(result.value)) return result;
      }
    },
    return: async (value?: unknown): Promise<IteratorResult<T>> => {
      hooks.returned();
      if (inner.return !== undefined) return inner.return(value);
      return { done: true, value: value as T };
    },
  };
}
