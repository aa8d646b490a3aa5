import type { LlmCall } from './LlmCall.js';
import type { StreamHooks } from './observeIterable.js';

/**
 * How every model stream ends when it does not end by itself: `record`
 * what it saw so far, then the call fails (the stream threw) or is
 * abandoned (the caller stopped reading).
 */
export function failOrAbandon(call: LlmCall, record: () => void): Pick<StreamHooks<unknown>, 'error' | 'returned'> {
  return {
    error: (err) => {
      record();
      call.fail(err);
    },
    returned: () => {
      record();
      call.abandon();
    },
  };
}
