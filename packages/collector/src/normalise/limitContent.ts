import { addMessagesJson, type ContentHalf } from '@telltale/store/encode';
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
 * How much larger than its JSON a message list can read (each element a
 * message of role `unknown`, numbers written out in full): a verbatim list
 * at most 1/GROWTH of the limit cannot need a cut, whatever it holds.
 */
const GROWTH = 8;

/**
 * Cuts the content of one span to `maxBytes` UTF-8 bytes in all, in place:
 * each string is cut (on a character boundary) to at most the same share,
 * the largest share that fits, so a 5 MB prompt leaves room for the answer.
 * A verbatim message list small enough never to need a cut stays as it came
 * (its JSON's bytes are counted); a larger one is read into messages first.
 */
export function limitContent(input: ContentHalf, output: ContentHalf, maxBytes: number): ContentCut {
  let verbatimBytes = 0;
  for (const half of [input, output])
    if (half.verbatim !== undefined)
      verbatimBytes += half.verbatim.utf8?.length ?? Buffer.byteLength(half.verbatim.json, 'utf8');
  if (verbatimBytes > 0) {
    const eagerBytes = slotsOf([input, output]).reduce((n, s) => n + Buffer.byteLength(s.get(), 'utf8'), 0);
    const bytes = eagerBytes + verbatimBytes;
    if (eagerBytes + GROWTH * verbatimBytes <= maxBytes)
      return { truncated: false, originalBytes: bytes, storedBytes: bytes };
    for (const half of [input, output]) {
      const verbatim = half.verbatim;
      if (verbatim === undefined) continue;
      delete half.verbatim;
      addMessagesJson(half, verbatim.json);
    }
  }
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
