/**
 * Bytes of request bodies held in memory at once. Every chunk read takes from
 * the budget; a request that cannot take is refused (503) instead of growing
 * the heap, and gives back what it took when it ends.
 */
export class ByteBudget {
  private used = 0;

  constructor(readonly capacity: number) {}

  tryTake(bytes: number): boolean {
    if (this.used + bytes > this.capacity) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }

  get inUse(): number {
    return this.used;
  }
}
