import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';

/**
 * The two C library calls the server uses to hand memory back to the
 * system, which Node does not expose: `malloc_trim` (glibc) and `madvise`.
 * They are reached through an FFI (koffi, with prebuilt binaries). Where the
 * C library is not glibc (musl, macOS, Windows) `loadLibc` finds nothing and the
 * server runs without them.
 */
export interface Libc {
  /** `malloc_trim(0)`: every whole free page of every heap of the allocator back to the system (true: some were). */
  mallocTrim(): boolean;
  /** `madvise(start, length, MADV_DONTNEED)`; throws with the errno on failure. */
  dontNeed(start: bigint, length: bigint): void;
}

/** MADV_DONTNEED (the same on every Linux architecture). */
const MADV_DONTNEED = 4;

type CFunction = (...args: unknown[]) => number;

/** The C library's calls, or undefined where they cannot be reached (not Linux with glibc, or no FFI build). */
export async function loadLibc(): Promise<Libc | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    const { default: koffi } = await import('koffi');
    const libc = koffi.load('libc.so.6');
    const trim = libc.func('int malloc_trim(size_t pad)') as CFunction;
    const madvise = libc.func('int madvise(uintptr_t addr, size_t length, int advice)') as CFunction;
    return {
      mallocTrim: () => trim(0) === 1,
      dontNeed(start, length) {
        if (madvise(start, length, MADV_DONTNEED) !== 0)
          throw new TelltaleError({
            code: TelltaleErrorCode.INTERNAL,
            message: `madvise(0x${start.toString(16)}, ${length}, MADV_DONTNEED) failed: errno ${koffi.errno()}`,
          });
      },
    };
  } catch {
    return undefined;
  }
}
