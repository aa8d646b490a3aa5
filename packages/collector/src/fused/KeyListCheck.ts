import type { KeyInfo } from './keyInfo.js';

const SLOTS = 256;

/**
 * SpanColumns' KeyOrderCheck for keys the fused decoder knows by their
 * KeyInfo: whether a list maps to the same entries in the same order as
 * toTextMap's JS object (no duplicate texts, no array-index keys, no
 * `__proto__`). Duplicates are found with a small open-addressing table on
 * the texts' hashes, comparing texts only when hashes collide.
 */
export class KeyListCheck {
  private readonly slotKey: string[] = new Array<string>(SLOTS).fill('');
  private readonly slotStamp = new Int32Array(SLOTS);
  private stamp = 0;

  /** Starts a list (of fewer than SLOTS keys). */
  begin(): void {
    this.stamp = (this.stamp + 1) | 0;
    if (this.stamp === 0) {
      this.slotStamp.fill(0);
      this.stamp = 1;
    }
  }

  /** Whether the list's next key keeps the order. */
  accept(info: KeyInfo): boolean {
    if (!info.ordered) return false;
    const key = info.key;
    let h = info.hash & (SLOTS - 1);
    while (this.slotStamp[h] === this.stamp) {
      if (this.slotKey[h] === key) return false;
      h = (h + 1) & (SLOTS - 1);
    }
    this.slotStamp[h] = this.stamp;
    this.slotKey[h] = key;
    return true;
  }
}
