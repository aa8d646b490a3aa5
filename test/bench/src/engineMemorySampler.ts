const MiB = 2 ** 20;

/** The embedded engine's allocator figures of a Prometheus text exposition (`telltale_engine_*`), bytes. */
export function parseEngineMemory(text: string): { allocatedBytes: number; residentBytes: number } | undefined {
  const allocated = /^telltale_engine_allocated_bytes (\S+)$/m.exec(text);
  const resident = /^telltale_engine_resident_bytes (\S+)$/m.exec(text);
  if (allocated === null || resident === null) return undefined;
  return { allocatedBytes: Number(allocated[1]), residentBytes: Number(resident[1]) };
}

/**
 * Scrapes the server's `/metrics` every `intervalMs` (one scrape at a time,
 * each bounded) and keeps the highest figures of the embedded engine's
 * allocator: what it holds in use, and its pages in memory (in use or freed
 * and kept). A scrape that fails or times out is skipped.
 */
export class EngineMemorySampler {
  peakAllocatedMiB = 0;
  peakResidentMiB = 0;
  samples = 0;
  private readonly timer: NodeJS.Timeout;
  private inFlight: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly baseUrl: string,
    intervalMs = 1000,
  ) {
    this.timer = setInterval(() => this.scrape(), intervalMs);
    this.scrape();
  }

  private scrape(): void {
    if (this.inFlight !== undefined) return;
    this.inFlight = this.scrapeOnce().finally(() => {
      this.inFlight = undefined;
    });
  }

  private async scrapeOnce(): Promise<void> {
    try {
      const res = await fetch(new URL('/metrics', this.baseUrl), { signal: AbortSignal.timeout(5_000) });
      const text = await res.text();
      const memory = res.ok ? parseEngineMemory(text) : undefined;
      if (memory === undefined) return;
      this.samples++;
      this.peakAllocatedMiB = Math.max(this.peakAllocatedMiB, memory.allocatedBytes / MiB);
      this.peakResidentMiB = Math.max(this.peakResidentMiB, memory.residentBytes / MiB);
    } catch {
      // the server is busy past the timeout, or gone: the next scrape tries again
    }
  }

  /** Stops scraping, once the scrape under way (at most 5 s) has ended; when none has answered yet, tries once more. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.inFlight;
    if (this.samples === 0 && !this.stopped) await this.scrapeOnce();
    this.stopped = true;
  }
}
