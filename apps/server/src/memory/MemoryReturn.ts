import { readFile } from 'node:fs/promises';
import { cleanMappings } from './cleanMappings.js';
import type { Libc } from './libc.js';

/** What has been handed back since start (for `/metrics`). */
export interface MemoryReturnStats {
  /** Calls to `malloc_trim`, and those that handed memory back. */
  trims: number;
  released: number;
  /** Wall seconds spent in those calls and in dropping library pages. */
  seconds: number;
  /** Resident bytes of the engine's library dropped, in all. */
  libraryBytes: number;
}

/** The engine's library, as it appears in `/proc/self/smaps`. */
const ENGINE_LIBRARY = /\/libchdb\.so$/;
/** The engine library's pages are dropped this often (and once at start). */
const LIBRARY_EVERY_MS = 60_000;

export interface MemoryReturnOptions {
  libc: Libc;
  /** Trim Node's allocator this often. */
  intervalMs: number;
  /** Drop the engine library's clean pages this often (default once a minute). */
  libraryEveryMs?: number;
  /** The library whose pages are dropped, as its path appears in `/proc/self/smaps` (default the engine's). */
  library?: RegExp;
  /** A failure to read the mappings or to drop them: the trimming goes on, the drops stop. */
  onLibraryError?: (err: Error) => void;
}

/**
 * Hands memory the server no longer uses back to the system, on a timer.
 *
 * - **Node's allocator** keeps the large buffers it freed (request bodies,
 *   spool records, encoded batches) in its heaps for reuse and gives back only
 *   what sits at a heap's top: under a saturating ingest load, 60–210 MiB.
 *   `malloc_trim(0)` every `intervalMs` returns the whole free pages.
 * - **The embedded engine's library** (about 540 MiB of code and read-only
 *   data) has about 210 MiB in memory after start, most of it touched once
 *   while the engine set itself up. Dropping its clean pages once a minute
 *   leaves about 80 MiB of it resident under load: the pages in use come
 *   back from the page cache on their next access.
 *
 * Started once; its timers never keep the process alive.
 */
export class MemoryReturn {
  private readonly counts: MemoryReturnStats = { trims: 0, released: 0, seconds: 0, libraryBytes: 0 };
  private readonly timers: NodeJS.Timeout[] = [];
  private libraryFailed = false;

  constructor(private readonly opts: MemoryReturnOptions) {}

  get stats(): Readonly<MemoryReturnStats> {
    return this.counts;
  }

  start(): void {
    if (this.timers.length > 0) return;
    this.timers.push(
      setInterval(() => this.trim(), this.opts.intervalMs),
      setInterval(() => void this.dropLibraryPages(), this.opts.libraryEveryMs ?? LIBRARY_EVERY_MS),
    );
    for (const timer of this.timers) timer.unref();
    void this.dropLibraryPages();
  }

  /** One `malloc_trim(0)` now. */
  trim(): void {
    const started = performance.now();
    const released = this.opts.libc.mallocTrim();
    this.counts.seconds += (performance.now() - started) / 1000;
    this.counts.trims += 1;
    if (released) this.counts.released += 1;
  }

  /** Drops the engine library's clean resident pages now; the bytes dropped (0 without an embedded engine). */
  async dropLibraryPages(): Promise<number> {
    if (this.libraryFailed) return 0;
    try {
      const mappings = cleanMappings(await readFile('/proc/self/smaps', 'utf8'), this.opts.library ?? ENGINE_LIBRARY);
      const started = performance.now();
      let bytes = 0;
      for (const m of mappings) {
        this.opts.libc.dontNeed(m.start, m.end - m.start);
        bytes += m.residentBytes;
      }
      this.counts.seconds += (performance.now() - started) / 1000;
      this.counts.libraryBytes += bytes;
      return bytes;
    } catch (err) {
      this.libraryFailed = true;
      this.opts.onLibraryError?.(err as Error);
      return 0;
    }
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers.length = 0;
  }
}
