import { MAX_RUN_ID_LENGTH } from '@telltale/semconv';
import { argsHash } from './argsHash.js';

/**
 * A run id the API can address. One longer than MAX_RUN_ID_LENGTH (an
 * attribute may hold 32 KiB; our SDK never sends more) keeps its start and
 * ends in `~` and a 16-hex-digit hash of the whole id, so two long ids that
 * share a start stay two runs. Never cut inside a surrogate pair.
 */
export function boundedRunId(id: string): string {
  if (id.length <= MAX_RUN_ID_LENGTH) return id;
  let keep = MAX_RUN_ID_LENGTH - 17;
  const last = id.charCodeAt(keep - 1);
  if (last >= 0xd800 && last <= 0xdbff) keep -= 1;
  return `${id.slice(0, keep)}~${argsHash(id)}`;
}
