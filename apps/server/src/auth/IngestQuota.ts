/** Seconds of quota a bucket holds: an exporter batching every 5 s (the OTel default) sends 5 s of spans at once. */
export const QUOTA_BURST_SECONDS = 5;
/** Retry-After stays within 1–3 s: the OTel JS exporter gives up on a Retry-After beyond its 10 s timeout. */
export const MIN_RETRY_AFTER_SECONDS = 1;
export const MAX_RETRY_AFTER_SECONDS = 3;

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Per-project ingest quotas: a token bucket per project filling at its
 * spans-per-second rate, holding QUOTA_BURST_SECONDS of it. A request is
 * admitted when the bucket holds its spans — or is full, so that a batch
 * larger than the bucket still gets through, leaving the bucket in debt —
 * and otherwise refused with the seconds until it would fit (1–3).
 */
export class IngestQuota {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;

  constructor(
    private readonly quotaOf: (projectId: string) => number | undefined,
    now?: () => number,
  ) {
    this.now = now ?? Date.now;
  }

  /** undefined: admitted (and counted); otherwise refused, retry after this many seconds. */
  admit(projectId: string, spans: number): { retryAfterSeconds: number } | undefined {
    const rate = this.quotaOf(projectId);
    if (rate === undefined || rate <= 0) {
      this.buckets.delete(projectId);
      return undefined;
    }
    const capacity = rate * QUOTA_BURST_SECONDS;
    const now = this.now();
    const bucket = this.buckets.get(projectId) ?? { tokens: capacity, at: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    this.buckets.set(projectId, bucket);
    const needed = Math.min(spans, capacity);
    if (bucket.tokens >= needed) {
      bucket.tokens -= spans;
      return undefined;
    }
    const wait = Math.ceil((needed - bucket.tokens) / rate);
    return { retryAfterSeconds: Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(MIN_RETRY_AFTER_SECONDS, wait)) };
  }
}
