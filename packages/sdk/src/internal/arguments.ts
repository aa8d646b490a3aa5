import { STEP_KINDS, StepKind, TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import { CAPTURE_MODES, isCaptureMode } from './contentCapture.js';

/** What is wrong with an argument (`undefined`: nothing). */
type Problem = string | undefined;
type Options = Record<string, unknown>;

const STEP_KIND_NAMES: readonly string[] = STEP_KINDS.filter((k) => k !== StepKind.run);
const GUARD_LIMITS: readonly string[] = ['maxRepeats', 'maxSteps', 'maxCostUsd', 'maxDurationMs'];
const MAX_SHOWN_CHARS = 80;

/** The error a wrapper call with an invalid argument rejects with: BAD_REQUEST, naming the call and the argument. */
export function argumentError(call: string, name: unknown, problem: string): TelltaleError {
  return new TelltaleError({ code: TelltaleErrorCode.BAD_REQUEST, message: `${call}(${shown(name)}): ${problem}` });
}

/** The name, function and options of a step wrapper (`step`'s kind is checked apart). */
export function stepProblem(name: unknown, fn: unknown, opts: unknown): Problem {
  return nameProblem(name) ?? functionProblem(fn) ?? stepOptionsProblem(opts);
}

export function stepKindProblem(kind: unknown, label = 'kind'): Problem {
  return typeof kind === 'string' && STEP_KIND_NAMES.includes(kind)
    ? undefined
    : must(label, `a step kind (${STEP_KIND_NAMES.join(', ')})`, kind);
}

export function runProblem(name: unknown, fn: unknown, opts: unknown): Problem {
  return nameProblem(name) ?? functionProblem(fn) ?? runOptionsProblem(opts);
}

export function llmProblem(name: unknown, model: unknown, fn: unknown, opts: unknown): Problem {
  return nameProblem(name) ?? modelProblem(model) ?? functionProblem(fn) ?? stepOptionsProblem(opts);
}

export function retryProblem(name: unknown, fn: unknown, opts: unknown): Problem {
  const problem = nameProblem(name) ?? functionProblem(fn);
  if (problem !== undefined) return problem;
  if (!isRecord(opts)) return must('options', '{ attempts, backoff?, retryIf?, kind?, … }', opts);
  return (
    retryPolicyProblem(opts, 'options') ??
    (opts.kind === undefined ? undefined : stepKindProblem(opts.kind, 'options.kind')) ??
    commonStepOptionsProblem(opts)
  );
}

/** `capture` of `init` / `createTelltale`. */
export function captureProblem(capture: unknown): Problem {
  return capture === undefined || isCaptureMode(capture) ? undefined : must('capture', captureModes(), capture);
}

/** A value as a message shows it: strings quoted (and cut), objects by their kind. */
export function shown(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > MAX_SHOWN_CHARS ? `${value.slice(0, MAX_SHOWN_CHARS)}…` : value);
    case 'function':
      return 'a function';
    case 'object':
      return value === null ? 'null' : Array.isArray(value) ? 'an array' : 'an object';
    case 'symbol':
      return value.toString();
    case 'bigint':
      return `${value}n`;
    case 'number':
    case 'boolean':
    case 'undefined':
      return String(value);
  }
}

export function isRecord(value: unknown): value is Options {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nameProblem(name: unknown): Problem {
  return typeof name === 'string' ? undefined : must('name', 'a string', name);
}

function functionProblem(fn: unknown): Problem {
  return typeof fn === 'function' ? undefined : must('fn', 'a function', fn);
}

function modelProblem(model: unknown): Problem {
  if (typeof model === 'string') return undefined;
  if (!isRecord(model)) return must('model', 'a model name or { model, provider?, operation? }', model);
  if (typeof model.model !== 'string') return must('model.model', 'a string (the model name)', model.model);
  return (
    optional(model, 'model', 'provider', isString, 'a string') ??
    optional(model, 'model', 'operation', isString, 'a string')
  );
}

function stepOptionsProblem(opts: unknown): Problem {
  if (opts === undefined) return undefined;
  if (!isRecord(opts)) return must('options', 'an object', opts);
  return (
    commonStepOptionsProblem(opts) ??
    optional(opts, 'options', 'attempt', isPositiveInteger, 'an integer ≥ 1') ??
    (opts.retry === undefined ? undefined : retryPolicyProblem(opts.retry, 'options.retry'))
  );
}

/** The step options `retry()` takes too. */
function commonStepOptionsProblem(opts: Options): Problem {
  return (
    optional(opts, 'options', 'sideEffect', isBoolean, 'true or false') ??
    optional(opts, 'options', 'attributes', isRecord, 'an object of attributes') ??
    optional(opts, 'options', 'capture', isCaptureMode, captureModes())
  );
}

function retryPolicyProblem(policy: unknown, label: string): Problem {
  if (!isRecord(policy)) return must(label, '{ attempts, backoff?, retryIf? }', policy);
  if (!isPositiveInteger(policy.attempts)) return must(`${label}.attempts`, 'an integer ≥ 1', policy.attempts);
  return (
    backoffProblem(policy.backoff, `${label}.backoff`) ?? optional(policy, label, 'retryIf', isFunction, 'a function')
  );
}

function backoffProblem(backoff: unknown, label: string): Problem {
  if (backoff === undefined || typeof backoff === 'function') return undefined;
  if (!isRecord(backoff))
    return must(label, '{ initialMs, factor?, maxMs?, jitter? } or (failedAttempt) => ms', backoff);
  if (!isNonNegative(backoff.initialMs)) return must(`${label}.initialMs`, 'a number ≥ 0', backoff.initialMs);
  return (
    optional(backoff, label, 'factor', isPositive, 'a number > 0') ??
    optional(backoff, label, 'maxMs', isNonNegative, 'a number ≥ 0') ??
    optional(backoff, label, 'jitter', isJitter, 'true, false or a number from 0 to 1')
  );
}

function runOptionsProblem(opts: unknown): Problem {
  if (opts === undefined) return undefined;
  if (!isRecord(opts)) return must('options', 'an object', opts);
  return (
    optional(opts, 'options', 'runId', isNonEmptyString, 'a non-empty string') ??
    optional(opts, 'options', 'agentId', isString, 'a string') ??
    optional(opts, 'options', 'sessionId', isString, 'a string') ??
    optional(opts, 'options', 'attributes', isRecord, 'an object of attributes') ??
    guardProblem(opts.guard)
  );
}

function guardProblem(guard: unknown): Problem {
  if (guard === undefined) return undefined;
  const label = 'options.guard';
  if (!isRecord(guard)) return must(label, `{ ${GUARD_LIMITS.map((l) => `${l}?`).join(', ')} }`, guard);
  const unknown = Object.keys(guard).find((key) => !GUARD_LIMITS.includes(key));
  if (unknown !== undefined) return `${label}.${unknown} is not a guard limit (${GUARD_LIMITS.join(', ')})`;
  return (
    optional(guard, label, 'maxRepeats', (v) => isInteger(v) && v >= 2, 'an integer ≥ 2') ??
    optional(guard, label, 'maxSteps', isPositiveInteger, 'an integer ≥ 1') ??
    optional(guard, label, 'maxCostUsd', isNonNegative, 'a number ≥ 0') ??
    optional(guard, label, 'maxDurationMs', isNonNegative, 'a number ≥ 0')
  );
}

/** `record[key]` is undefined or passes `test`. */
function optional(
  record: Options,
  label: string,
  key: string,
  test: (value: unknown) => boolean,
  expected: string,
): Problem {
  const value = record[key];
  return value === undefined || test(value) ? undefined : must(`${label}.${key}`, expected, value);
}

function must(label: string, expected: string, value: unknown): string {
  return `${label} must be ${expected}, got ${shown(value)}`;
}

function captureModes(): string {
  const quoted = CAPTURE_MODES.map((m) => `'${m}'`);
  return `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

function isString(value: unknown): boolean {
  return typeof value === 'string';
}

function isNonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
}

function isBoolean(value: unknown): boolean {
  return typeof value === 'boolean';
}

function isFunction(value: unknown): boolean {
  return typeof value === 'function';
}

function isInteger(value: unknown): value is number {
  return Number.isSafeInteger(value);
}

function isPositiveInteger(value: unknown): boolean {
  return isInteger(value) && value >= 1;
}

function isNonNegative(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function isPositive(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

function isJitter(value: unknown): boolean {
  return typeof value === 'boolean' || (typeof value === 'number' && value >= 0 && value <= 1);
}
