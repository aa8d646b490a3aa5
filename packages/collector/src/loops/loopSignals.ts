import { StepKind } from '@telltale/semconv';
import type { SpanRecord } from '@telltale/store/encode';

/** 1 tool, 2 plan, 3 validate: the steps loop detection looks at (as the stored detection does). */
export type LoopStepKind = 1 | 2 | 3;

/**
 * What live loop detection needs of one tool / plan / validate span. The
 * hashes are only compared, so they are held as keys: 53-bit numbers
 * (hashKey), 0 when unknown. The start time and the span id are held
 * exactly, as 32-bit-sized parts, and order steps as the stored detection
 * does: by start, then by the span id read as a 64-bit number.
 */
export interface LoopStep {
  runId: string;
  /** Start in Unix nanoseconds, as two 32-bit numbers (high, low). */
  startHi: number;
  startLo: number;
  /** The span id's last 16 hex digits, as two 32-bit numbers (high, low). */
  spanHi: number;
  spanLo: number;
  kind: LoopStepKind;
  failed: boolean;
  /** Tool name (else step name) for tools; '' otherwise. */
  tool: string;
  /** Tools: the arguments hash's key. */
  argsKey: number;
  /** Plan and validate: the state hash's key. */
  stateKey: number;
  /** Validate: the output hash's key. */
  outputKey: number;
}

/**
 * The loop-relevant part of an accepted export request. It crosses from an
 * ingest worker to the main thread with every reply, so its steps are
 * numbers in one array, moved rather than copied, and name their run and
 * tool by index into `strings`: structured-cloning one object per step
 * cost the two threads about 0.6 CPU-µs per span.
 */
export interface LoopSignals {
  projectId: string;
  /** The run ids and tool names the steps name, each once. */
  strings: string[];
  /** STEP_WIDTH numbers per step: read them with loopStepAt. */
  steps: Float64Array;
  /** Runs whose run span arrived: they have ended. */
  endedRuns: string[];
  /** Service per run, for alert labels. */
  services: Record<string, string>;
}

/** A step's numbers: run, kind, failed, tool, args key, state key, output key, start high, low, span id high, low. */
const STEP_WIDTH = 11;

const KIND_CODE: Partial<Record<string, LoopStepKind>> = {
  [StepKind.tool]: 1,
  [StepKind.plan]: 2,
  [StepKind.validate]: 3,
};

/** What loop signals read of a span (a SpanRecord, or the fused decoder's row). */
export type LoopSpan = Pick<
  SpanRecord,
  | 'stepKind'
  | 'runId'
  | 'serviceName'
  | 'startTimeUnixNano'
  | 'spanId'
  | 'statusCode'
  | 'toolName'
  | 'stepName'
  | 'toolArgsHash'
  | 'stateHash'
  | 'outputHash'
>;

/** Scratch for splitting a start time into its 32-bit halves. */
const start = new DataView(new ArrayBuffer(8));

/** Extracts the loop signals of a request's spans (in the worker, next to the encoding). */
export function loopSignalsOf(projectId: string, spans: readonly LoopSpan[]): LoopSignals {
  let count = 0;
  for (const s of spans) if (KIND_CODE[s.stepKind] !== undefined) count++;
  const steps = new Float64Array(count * STEP_WIDTH);
  const strings: string[] = [];
  const indexOf = new Map<string, number>();
  const intern = (text: string): number => {
    let i = indexOf.get(text);
    if (i === undefined) {
      i = strings.push(text) - 1;
      indexOf.set(text, i);
    }
    return i;
  };
  const endedRuns: string[] = [];
  const services: Record<string, string> = {};
  let o = 0;
  for (const s of spans) {
    if (s.stepKind === StepKind.run) {
      endedRuns.push(s.runId);
      continue;
    }
    const kind = KIND_CODE[s.stepKind];
    if (kind === undefined) continue;
    services[s.runId] ??= s.serviceName;
    steps[o] = intern(s.runId);
    steps[o + 1] = kind;
    steps[o + 2] = s.statusCode === 2 ? 1 : 0;
    steps[o + 3] = intern(kind === 1 ? s.toolName || s.stepName : '');
    steps[o + 4] = kind === 1 ? hashKey(s.toolArgsHash) : 0;
    steps[o + 5] = kind === 1 ? 0 : hashKey(s.stateHash);
    steps[o + 6] = kind === 3 ? hashKey(s.outputHash) : 0;
    // the 64-bit start split without BigInt arithmetic
    start.setBigUint64(0, s.startTimeUnixNano, true);
    steps[o + 7] = start.getUint32(4, true);
    steps[o + 8] = start.getUint32(0, true);
    const id = s.spanId;
    steps[o + 9] = hexNumber(id, id.length - 16, id.length - 8);
    steps[o + 10] = hexNumber(id, id.length - 8, id.length);
    o += STEP_WIDTH;
  }
  return { projectId, strings, steps, endedRuns, services };
}

/** How many steps the signals hold. */
export function loopStepCount(signals: LoopSignals): number {
  return signals.steps.length / STEP_WIDTH;
}

/** The i-th step of the signals, in the request's order. */
export function loopStepAt(signals: LoopSignals, i: number): LoopStep {
  const f = signals.steps;
  const o = i * STEP_WIDTH;
  return {
    runId: signals.strings[f[o]!]!,
    kind: f[o + 1] as LoopStepKind,
    failed: f[o + 2] === 1,
    tool: signals.strings[f[o + 3]!]!,
    argsKey: f[o + 4]!,
    stateKey: f[o + 5]!,
    outputKey: f[o + 6]!,
    startHi: f[o + 7]!,
    startLo: f[o + 8]!,
    spanHi: f[o + 9]!,
    spanLo: f[o + 10]!,
  };
}

/** The hex digits of `text` from `from` (0 if before its start) to `to`, as a number; 0 if one is not a hex digit. */
function hexNumber(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = Math.max(0, from); i < to; i++) {
    const c = text.charCodeAt(i) | 0x20; // lower case
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (digit < 0) return 0;
    n = n * 16 + digit;
  }
  return n;
}

/**
 * A 53-bit key of a hash string, 0 for '' (unknown): two 32-bit
 * multiply-xor lanes over its UTF-16 code units, mixed, so equal strings
 * give equal keys and different ones collide with odds of about 2⁻⁵³ per pair.
 */
export function hashKey(text: string): number {
  if (text === '') return 0;
  let a = 0x9e3779b9;
  let b = 0x85ebca6b;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x85ebca77);
    b = Math.imul(b ^ c, 0xc2b2ae3d);
  }
  a = Math.imul(a ^ (a >>> 16), 0x27d4eb2f) ^ Math.imul(b ^ (b >>> 13), 0x165667b1);
  b = Math.imul(b ^ (b >>> 16), 0x27d4eb2f) ^ Math.imul(a ^ (a >>> 13), 0x165667b1);
  // never 0: that is "unknown"
  return (b & 0x1fffff) * 0x100000000 + (a >>> 0) || 1;
}
