import { NO_ESTIMATE, Z95, type Estimate } from './Interval.js';

/** A proportion with its Wilson score interval (good near 0 and 1, unlike the normal interval). */
export function wilson(successes: number, n: number, z: number = Z95): Estimate {
  if (n <= 0) return NO_ESTIMATE;
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return { value: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half), n };
}
