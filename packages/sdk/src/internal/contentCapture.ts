import { DEFAULT_REDACTORS, type Redactor } from '../redactors.js';

/**
 * What the SDK records of a step's inputs and outputs:
 * - `none` (default): nothing, only the hashes (loop detection needs no content);
 * - `metadata`: the shape — message roles, object keys, and each string's length, never its text;
 * - `full`: the content itself, after redaction.
 */
export type CaptureMode = 'none' | 'metadata' | 'full';

export const CAPTURE_MODES: readonly CaptureMode[] = ['none', 'metadata', 'full'];

export function isCaptureMode(value: unknown): value is CaptureMode {
  return CAPTURE_MODES.includes(value as CaptureMode);
}

export interface ContentOptions {
  /** What to capture (default `none`). */
  capture?: CaptureMode;
  /**
   * Redactors run on every captured string before it leaves the process:
   * one or a list, run after the built-in ones (API keys, bearer tokens,
   * e-mails, card numbers); `false` turns the built-in ones off too.
   */
  redact?: Redactor | readonly Redactor[] | false;
}

/** Resolved capture settings of one step. */
export interface ContentSettings {
  mode: CaptureMode;
  redactors: readonly Redactor[];
}

let defaults: ContentOptions = {};

/** Sets the process-wide defaults (from `init`). */
export function setContentDefaults(opts: ContentOptions): void {
  defaults = { ...opts };
}

/** The settings of a step: its own mode, else the wrappers', else the process default; redactors likewise. */
export function resolveContent(step: CaptureMode | undefined, own: ContentOptions | undefined): ContentSettings {
  const mode = step ?? own?.capture ?? defaults.capture ?? 'none';
  const redact = own?.redact ?? defaults.redact;
  const redactors =
    redact === false
      ? []
      : redact === undefined
        ? DEFAULT_REDACTORS
        : [...DEFAULT_REDACTORS, ...(Array.isArray(redact) ? (redact as readonly Redactor[]) : [redact as Redactor])];
  return { mode, redactors };
}

/** Keys whose string values are structure, kept as they are in `metadata` mode. */
const STRUCTURAL_KEYS: ReadonlySet<string> = new Set(['role', 'type', 'name', 'finish_reason']);
const MAX_DEPTH = 32;

/** A captured value: JSON text, and how many strings the redactors changed. */
export interface Captured {
  json: string;
  redactions: number;
}

/**
 * `value` as JSON (a top-level string as itself with `plainText`) under `settings` (undefined for `none`): strings redacted
 * (full) or replaced by their length (metadata); cycles, functions and
 * depth beyond 32 are cut, bigints become strings.
 */
export function captureValue(value: unknown, settings: ContentSettings, plainText = false): Captured | undefined {
  if (settings.mode === 'none' || value === undefined) return undefined;
  const state = { redactions: 0 };
  const clean = walk(value, settings, state, [], undefined);
  const json = plainText && typeof clean === 'string' ? clean : JSON.stringify(clean ?? null);
  return { json, redactions: state.redactions };
}

function walk(
  value: unknown,
  settings: ContentSettings,
  state: { redactions: number },
  ancestors: object[],
  key: string | undefined,
): unknown {
  switch (typeof value) {
    case 'string':
      return text(value, settings, state, key);
    case 'number':
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'object':
      break;
  }
  if (value === null) return null;
  const obj = value;
  if (ancestors.includes(obj) || ancestors.length >= MAX_DEPTH) return '[…]';
  if (typeof (obj as { toJSON?: unknown }).toJSON === 'function')
    return walk((obj as { toJSON: () => unknown }).toJSON(), settings, state, ancestors, key);
  if (obj instanceof Error) return { name: obj.name, message: text(obj.message, settings, state, undefined) };
  const inner = [...ancestors, obj];
  if (Array.isArray(obj)) return obj.map((x) => walk(x, settings, state, inner, undefined) ?? null);
  if (obj instanceof Map) return walk(Object.fromEntries(obj), settings, state, ancestors, key);
  if (obj instanceof Set) return walk([...obj], settings, state, ancestors, key);
  if (ArrayBuffer.isView(obj)) return `[${obj.byteLength} bytes]`;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    const w = walk(v, settings, state, inner, k);
    if (w !== undefined) out[k] = w;
  }
  return out;
}

function text(s: string, settings: ContentSettings, state: { redactions: number }, key: string | undefined): string {
  if (settings.mode === 'metadata') return key !== undefined && STRUCTURAL_KEYS.has(key) ? s : `[${s.length} chars]`;
  let out = s;
  for (const redact of settings.redactors) out = redact(out);
  if (out !== s) state.redactions++;
  return out;
}
