import { formatDuration } from '../format';
import type { Fraction, Nanoseconds } from '../units';
import { fraction, nanoseconds } from '../units';

export interface TimeTick {
  offset: Nanoseconds;
  fraction: Fraction;
  label: string;
}

/** A "nice" step (1, 2 or 5 × 10^k ns) giving about `target` intervals over `total`. */
export function niceStep(total: Nanoseconds, target: number): Nanoseconds {
  if (total <= 0) return nanoseconds(1);
  const raw = total / Math.max(1, target);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const normalized = raw / magnitude;
  const multiple = normalized <= 1 ? 1 : normalized <= 2 ? 2 : normalized <= 5 ? 5 : 10;
  return nanoseconds(Math.max(1, multiple * magnitude));
}

/** Ticks from 0 to `total` at a nice step, labelled in readable units (zero as a bare `0`). */
export function prepareTimeAxis(total: Nanoseconds, target = 5): TimeTick[] {
  if (total <= 0) return [{ offset: nanoseconds(0), fraction: fraction(0), label: '0' }];
  const step = niceStep(total, target);
  const ticks: TimeTick[] = [];
  for (let i = 0; i * step <= total * (1 + 1e-9); i += 1) {
    const offset = nanoseconds(i * step);
    ticks.push({
      offset,
      fraction: fraction(Math.min(1, offset / total)),
      label: i === 0 ? '0' : formatDuration(offset),
    });
  }
  return ticks;
}
