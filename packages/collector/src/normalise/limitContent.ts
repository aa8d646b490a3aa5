import type { ContentHalf } from '@telltale/store/encode';
import { truncateString } from './spanLimits.js';

/** What the per-span content limit did. */
export interface ContentCut {
  truncated: boolean;
  /** UTF-8 bytes of every string of the content, before the cut. */
  originalBytes: number;
  /** After it (≤ the limit). */
  storedBytes: number;
}

type Slot = { get: () => string; set: (s: string) => void };

/** Every string of the halves, as slots that can be rewritten. */
function slotsOf(halves: ContentHalf[]): Slot[] {
  const slots: Slot[] = [];
  for (const half of halves) {
    for (const m of half.messages ?? [])
      slots.push(
        { get: () => m.content, set: (s) => (m.content = s) },
        { get: () => m.role, set: (s) => (m.role = s) },
      );
    for (const key of ['toolArguments', 'toolResult', 'text'] as const) {
      if (half[key] !== undefined) slots.push({ get: () => half[key] ?? '', set: (s) => (half[key] = s) });
    }
  }
  return slots;
}

/**
 * Cuts the content of one span to `maxBytes` UTF-8 bytes in all, in place:
 * each string is cut (on a character boundary) to at most the same share,
 * the largest share that fits, so a 5 MB prompt leaves room for the answer.
 */
export function limitContent(input: ContentHalf, output: ContentHalf, maxBytes: number): ContentCut {
  const slots = slotsOf([input, output]);
  const sizes = slots.map((s) => Buffer.byteLength(s.get(), 'utf8'));
  const originalBytes = sizes.reduce((a, b) => a + b, 0);
  if (originalBytes <= maxBytes) return { truncated: false, originalBytes, storedBytes: originalBytes };
  // the largest cap c with Σ min(size, c) ≤ maxBytes (water filling over the sorted sizes)
  const sorted = [...sizes].sort((a, b) => a - b);
  let remaining = maxBytes;
  let cap = 0;
  for (let i = 0; i < sorted.length; i++) {
    const share = Math.floor(remaining / (sorted.length - i));
    const size = sorted[i] ?? 0;
    if (size <= share) remaining -= size;
    else {
      cap = share;
      break;
    }
  }
  let storedBytes = 0;
  slots.forEach((slot, i) => {
    if ((sizes[i] ?? 0) > cap) slot.set(truncateString(slot.get(), cap));
    storedBytes += Buffer.byteLength(slot.get(), 'utf8');
  });
  return { truncated: true, originalBytes, storedBytes };
}
