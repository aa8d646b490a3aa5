import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Linux clock ticks per second (USER_HZ): 100 on every mainstream kernel. */
const CLK_TCK = 100;

/** utime + stime of a /proc stat line, in seconds (the comm field may hold spaces: parse after its closing paren). */
function statCpuSeconds(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

function statusKiB(status: string, key: string): number {
  const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status);
  return m === null ? 0 : Number(m[1]);
}

/** CPU seconds a process has used so far, all its threads (0 once it is gone). */
export function processCpuSeconds(pid: number): number {
  try {
    return statCpuSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return 0;
  }
}

/**
 * CPU seconds per thread of a process, keyed by thread name (comm); the main
 * thread is `main`; unnamed threads (`node`: worker threads, the libuv pool
 * where chDB queries run, V8's platform threads) are keyed `node#<tid>`.
 */
export function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const comm = Number(tid) === pid ? 'main' : name === 'node' ? `node#${tid}` : name;
      out.set(comm, (out.get(comm) ?? 0) + statCpuSeconds(stat));
    } catch {
      // the thread ended between readdir and read
    }
  }
  return out;
}

export interface Sample {
  /** performance.now() of the sample. */
  atMs: number;
  rssMiB: number;
  /** Process CPU seconds so far (all threads). */
  cpuS: number;
  /** Bytes of spool segments not yet drained into the store (see spoolBacklogBytes). */
  spoolBacklogBytes: number;
}

/**
 * Bytes the spool holds that are not yet in the store, read from its files:
 * segments `seg-<seq>.log` and the drain checkpoint `drain.json` ({seq,
 * offset}: everything before it is stored). A bench-side reading of the
 * spool's on-disk layout (packages/collector/src/spool), not an API.
 */
export function spoolBacklogBytes(spoolDir: string): number {
  let drain: { seq: number; offset: number } = { seq: 0, offset: 0 };
  try {
    drain = JSON.parse(readFileSync(join(spoolDir, 'drain.json'), 'utf8')) as { seq: number; offset: number };
  } catch {
    // no checkpoint yet: nothing drained
  }
  let backlog = 0;
  let names: string[];
  try {
    names = readdirSync(spoolDir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const m = /^seg-(\d+)\.log$/.exec(name);
    if (m === null) continue;
    const seq = Number(m[1]);
    if (seq < drain.seq) continue;
    let size = 0;
    try {
      size = statSync(join(spoolDir, name)).size;
    } catch {
      continue; // deleted once drained
    }
    backlog += seq === drain.seq ? Math.max(0, size - drain.offset) : size;
  }
  return backlog;
}

/**
 * Samples a process every `intervalMs` from /proc: RSS, peak RSS (VmHWM),
 * CPU time, and the spool backlog.
 */
export class ProcessSampler {
  readonly samples: Sample[] = [];
  private readonly timer: NodeJS.Timeout;
  peakRssMiB = 0;
  /** The highest anonymous (heap: Node's and the engine's) and file-backed (mapped code, chiefly the engine's library) parts of the RSS seen. */
  peakAnonMiB = 0;
  peakFileMiB = 0;

  constructor(
    private readonly pid: number,
    private readonly spoolDir: string,
    intervalMs = 100,
  ) {
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.sample();
  }

  sample(): Sample | undefined {
    try {
      const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
      const stat = readFileSync(`/proc/${this.pid}/stat`, 'utf8');
      const rssMiB = statusKiB(status, 'VmRSS') / 1024;
      this.peakRssMiB = Math.max(this.peakRssMiB, rssMiB, statusKiB(status, 'VmHWM') / 1024);
      this.peakAnonMiB = Math.max(this.peakAnonMiB, statusKiB(status, 'RssAnon') / 1024);
      this.peakFileMiB = Math.max(this.peakFileMiB, statusKiB(status, 'RssFile') / 1024);
      const s: Sample = {
        atMs: performance.now(),
        rssMiB,
        cpuS: statCpuSeconds(stat),
        spoolBacklogBytes: spoolBacklogBytes(this.spoolDir),
      };
      this.samples.push(s);
      return s;
    } catch {
      return undefined; // the process has exited
    }
  }

  /** Process CPU seconds now. */
  cpuNow(): number {
    return this.sample()?.cpuS ?? Number.NaN;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
