import { Agent, request } from 'node:http';
import type { PayloadPool } from './PayloadPool.js';

export interface LoadOptions {
  /** Base URL of the server; requests go to `${url}/v1/traces`. */
  url: string;
  pool: PayloadPool;
  /** Closed loop: requests in flight, each sent as soon as the previous one of its loop is answered. */
  concurrency: number;
  /**
   * Open loop instead: requests arrive at this many spans per second on
   * average (Poisson arrivals, as from many independent exporters), whatever
   * the answers; each latency counts from its scheduled arrival, so a late
   * client or a queue is measured, not hidden. Undefined: closed loop.
   */
  offeredSpansPerS?: number | undefined;
  /** Open loop: seed of the arrival times (default 1). */
  arrivalSeed?: number;
  warmupMs: number;
  windowMs: number;
  /** Wait before retrying a 503 (the server's Retry-After is seconds; a short wait keeps the pressure on). */
  retryWaitMs?: number;
  /** A request without an answer after this long is abandoned (socket destroyed) and counted as a failure (default 60 s). */
  requestTimeoutMs?: number;
  /** After the window, a request still answered 503 this long is given up (counted in `abandoned503`; default 20 s). */
  giveUp503AfterWindowMs?: number;
  /** Progress lines (every 5 s). */
  log?: (line: string) => void;
  /** Called when the timed window starts and ends (performance.now()). */
  onWindow?: (edge: 'start' | 'end', atMs: number) => void;
}

export interface LoadResult {
  /** Every 200 (warm-up, window and the in-flight tail after it): what the store must hold. */
  ackedRequests: number;
  ackedSpans: number;
  ackedRuns: number;
  /** Spans with content among the acknowledged ones. */
  ackedContentSpans: number;
  /** 200s that arrived inside the timed window. */
  windowAckedSpans: number;
  windowAckedRequests: number;
  windowMs: number;
  /** `closed` (fixed requests in flight) or `open` (fixed offered rate). */
  mode: 'closed' | 'open';
  /** Open loop: the offered rate asked for, spans/s. */
  offeredSpansPerS: number | undefined;
  /** The highest number of requests in flight at once. */
  peakInFlight: number;
  /**
   * Latency of each request acknowledged in the window, ms, sorted. Closed
   * loop: send to 200 of the attempt that got it. Open loop: scheduled
   * arrival to 200, 503 retries included.
   */
  windowLatenciesMs: number[];
  /** 503 answers (each retried after a short wait), during the whole run and inside the window. */
  retries503: number;
  windowRetries503: number;
  /** Requests still refused with 503 well after the window: given up, never acknowledged. */
  abandoned503: number;
  /** Other statuses and transport errors: possible loss or duplicates, so the bench fails on any. */
  otherFailures: { status: number | string; count: number }[];
  /** performance.now() when the window ended and when the last in-flight request came back. */
  windowEndMs: number;
  lastAckMs: number;
  /** CPU of this (client) process during the window, seconds. */
  clientCpuS: number;
  /** Spans acknowledged in each second since the load began (warm-up included). */
  ackTimeline: number[];
  /** performance.now() of the first 503, if any. */
  first503Ms: number | undefined;
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
}

function post(agent: Agent, url: URL, body: Buffer, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        timeout: timeoutMs,
        headers: { 'content-type': 'application/x-protobuf', 'content-length': body.length },
      },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.on('timeout', () => req.destroy(Object.assign(new Error('no answer in time'), { code: 'TIMEOUT' })));
    req.end(body);
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Open loop: connections at most; requests past them wait in the client (their wait counts in the latency). */
const OPEN_LOOP_MAX_SOCKETS = 512;
/** Open loop: an idle connection is closed by the client after this long (arrivals leave some idle for seconds). */
const OPEN_LOOP_IDLE_SOCKET_MS = 3_000;

/** A small seeded generator in [0, 1) (mulberry32): the same arrival times for the same seed. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The load: `concurrency` loops, each POSTing distinct export requests back
 * to back over keep-alive connections (closed loop), or requests arriving at
 * `offeredSpansPerS` whatever the answers (open loop). A warm-up, then the timed window;
 * after it no new request starts and the in-flight ones are awaited (their
 * 200s count as acknowledged, not inside the window).
 */
export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  // open loop: connections as needed (an exporter fleet holds many), up to a bound that queues past it
  const sockets = opts.offeredSpansPerS === undefined ? opts.concurrency : OPEN_LOOP_MAX_SOCKETS;
  // idle sockets are let go before the server's keep-alive timeout (5 s) could close one under a new request
  const agent = new Agent({
    keepAlive: true,
    maxSockets: sockets,
    maxFreeSockets: sockets,
    ...(opts.offeredSpansPerS === undefined ? {} : { timeout: OPEN_LOOP_IDLE_SOCKET_MS }),
  });
  const url = new URL('/v1/traces', opts.url);
  const retryWaitMs = opts.retryWaitMs ?? 50;
  const start = performance.now();
  const windowStart = start + opts.warmupMs;
  const windowEnd = windowStart + opts.windowMs;
  const r: LoadResult = {
    ackedRequests: 0,
    ackedSpans: 0,
    ackedRuns: 0,
    ackedContentSpans: 0,
    windowAckedSpans: 0,
    windowAckedRequests: 0,
    windowMs: opts.windowMs,
    mode: opts.offeredSpansPerS === undefined ? 'closed' : 'open',
    offeredSpansPerS: opts.offeredSpansPerS,
    peakInFlight: 0,
    windowLatenciesMs: [],
    retries503: 0,
    windowRetries503: 0,
    abandoned503: 0,
    otherFailures: [],
    windowEndMs: windowEnd,
    lastAckMs: start,
    clientCpuS: 0,
    ackTimeline: [],
    first503Ms: undefined,
  };
  const failures = new Map<number | string, number>();
  const requestTimeoutMs = opts.requestTimeoutMs ?? 60_000;
  const giveUpMs = opts.giveUp503AfterWindowMs ?? 20_000;
  let inFlight = 0;
  const progress = setInterval(() => {
    opts.log?.(
      `load: ${r.ackedSpans.toLocaleString('en-US')} spans acknowledged, ${r.retries503} 503s, ${inFlight} in flight, failures ${JSON.stringify([...failures])}`,
    );
  }, 5_000);
  let cpuAtStart: NodeJS.CpuUsage | undefined;
  let ended = false;
  /** The window's end edge, once: by its timer, or when the load is over if the timer has not fired yet. */
  const endWindow = (): void => {
    if (ended) return;
    ended = true;
    const used = process.cpuUsage(cpuAtStart);
    r.clientCpuS = (used.user + used.system) / 1e6;
    opts.onWindow?.('end', performance.now());
  };
  const windowTimers = [
    setTimeout(() => {
      cpuAtStart = process.cpuUsage();
      opts.onWindow?.('start', performance.now());
    }, opts.warmupMs),
    setTimeout(endWindow, opts.warmupMs + opts.windowMs),
  ];

  /** Sends one request until it is answered other than 503 (or given up); `since`: where its latency counts from. */
  const send = async (since: number | undefined): Promise<void> => {
    const { body, spans, runs, contentSpans } = opts.pool.next();
    for (;;) {
      const sent = performance.now();
      let answer: Answer;
      try {
        inFlight++;
        r.peakInFlight = Math.max(r.peakInFlight, inFlight);
        answer = await post(agent, url, body, requestTimeoutMs).finally(() => inFlight--);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? 'error';
        failures.set(code, (failures.get(code) ?? 0) + 1);
        return;
      }
      const now = performance.now();
      if (answer.status === 200) {
        r.ackedRequests++;
        r.ackedSpans += spans;
        r.ackedRuns += runs;
        r.ackedContentSpans += contentSpans;
        r.lastAckMs = Math.max(r.lastAckMs, now);
        const second = Math.floor((now - start) / 1000);
        while (r.ackTimeline.length <= second) r.ackTimeline.push(0);
        r.ackTimeline[second]! += spans;
        if (now >= windowStart && now < windowEnd) {
          r.windowAckedRequests++;
          r.windowAckedSpans += spans;
          r.windowLatenciesMs.push(now - (since ?? sent));
        }
        return;
      }
      if (answer.status === 503) {
        r.retries503++;
        r.first503Ms ??= now;
        if (now > windowEnd + giveUpMs) {
          r.abandoned503++;
          return; // never acknowledged: not a loss, but the server stopped taking data
        }
        if (now >= windowStart && now < windowEnd) r.windowRetries503++;
        await sleep(retryWaitMs);
        continue;
      }
      failures.set(answer.status, (failures.get(answer.status) ?? 0) + 1);
      return;
    }
  };
  const loop = async (): Promise<void> => {
    while (performance.now() < windowEnd) await send(undefined);
  };
  /** Open loop: Poisson arrivals at the offered rate until the window ends; every request is awaited. */
  const arrivals = async (spansPerS: number): Promise<void> => {
    const random = seededRandom(opts.arrivalSeed ?? 1);
    const { templates } = opts.pool;
    const spansPerRequest = templates.reduce((n, t) => n + t.spans, 0) / Math.max(1, templates.length);
    const requestsPerMs = spansPerS / spansPerRequest / 1000;
    const pending = new Set<Promise<void>>();
    let at = start;
    for (;;) {
      at += -Math.log(1 - random()) / requestsPerMs;
      if (at >= windowEnd) break;
      const wait = at - performance.now();
      if (wait > 1) await sleep(wait);
      const p: Promise<void> = send(Math.min(at, performance.now())).finally(() => pending.delete(p));
      pending.add(p);
    }
    // the window's end is timed, as in the closed loop, whatever arrives last
    await sleep(windowEnd - performance.now());
    endWindow();
    await Promise.all(pending);
  };
  try {
    if (opts.offeredSpansPerS === undefined) await Promise.all(Array.from({ length: opts.concurrency }, loop));
    else await arrivals(opts.offeredSpansPerS);
  } finally {
    for (const t of windowTimers) clearTimeout(t);
    clearInterval(progress);
    agent.destroy();
  }
  r.windowLatenciesMs.sort((a, b) => a - b);
  r.otherFailures = [...failures].map(([status, count]) => ({ status, count }));
  return r;
}
