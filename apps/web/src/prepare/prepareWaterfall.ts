import type { Span, StepKind } from '@telltale/api-contract';
import { STEP_KINDS } from '@telltale/api-contract';
import { formatDuration } from '../format';
import type { Swatch } from '../palette';
import { STEP_KIND_SWATCHES } from '../palette';
import type { Fraction, Nanoseconds, UnixNanos } from '../units';
import { addNanos, fraction, maxUnixNanos, minUnixNanos, nanosBetween, nanoseconds, unixNanos } from '../units';
import type { TimeTick } from './prepareTimeAxis';
import { prepareTimeAxis } from './prepareTimeAxis';

/** Where a span sits among the attempts of its attempt group (see markAttempts). */
export interface AttemptMark {
  attempt: number;
  /** How many attempts the step had: the highest attempt number seen, or the group size if larger. */
  of: number;
  label: string;
  failed: boolean;
  position: 'first' | 'middle' | 'last';
  /** The span id of the group's first attempt. */
  groupKey: string;
}

export interface WaterfallRow {
  spanId: string;
  parentSpanId: string;
  depth: number;
  /** The step name when the span has one, the span name otherwise. */
  name: string;
  /** Tool, model and (when the step name is shown) the span name: `tool web_search · gpt-4o`. */
  detail: string;
  stepKind: StepKind;
  kindLabel: string;
  color: string;
  /** Bar start on the run's time axis, in [0, 1]. */
  offsetFraction: Fraction;
  /** Bar length on the run's time axis, in [0, 1 - offsetFraction]. */
  widthFraction: Fraction;
  offsetLabel: string;
  durationLabel: string;
  /**
   * Where the duration label goes: after the bar; before it when the bar ends
   * near the right edge; inside it when the bar spans (nearly) the whole axis.
   */
  labelPlacement: 'after' | 'before' | 'inside';
  isError: boolean;
  /** Error type, else status message, else `error`; `''` when not an error. */
  errorLabel: string;
  /** The span names a parent that is not in the set (or is part of a parent cycle). */
  isOrphan: boolean;
  childCount: number;
  sideEffect: boolean;
  attempt: AttemptMark | null;
}

export interface Waterfall {
  rows: WaterfallRow[];
  /** Time zero of the axis: the earlier of the run start and the first span start. */
  start: UnixNanos;
  total: Nanoseconds;
  totalLabel: string;
  ticks: TimeTick[];
  /** The step kinds present, in canonical order. */
  legend: (Swatch & { stepKind: StepKind })[];
  errorCount: number;
  orphanCount: number;
}

export interface WaterfallOptions {
  /** The run's own window; the axis covers it as well as every span. */
  runStart?: UnixNanos | undefined;
  runDuration?: Nanoseconds | undefined;
  /** Ticks to aim for on the time axis. */
  tickTarget?: number | undefined;
}

/** Bars ending past this fraction of the axis get their label before them, or inside when they start early too. */
const LABEL_AFTER_UNTIL = 0.75;
const LABEL_BEFORE_FROM = 0.15;

function labelPlacement(offset: number, width: number): WaterfallRow['labelPlacement'] {
  if (offset + width <= LABEL_AFTER_UNTIL) return 'after';
  return offset >= LABEL_BEFORE_FROM ? 'before' : 'inside';
}

/**
 * Start order. Starts may be whole milliseconds (the OpenTelemetry JS SDK's
 * are) and ends the start plus a precise duration: a retry that starts in
 * its failed attempt's millisecond goes after it by its attempt number, even
 * when it seems to end first.
 */
function compareSpans(a: Span, b: Span): number {
  if (a.startTimeUnixNano !== b.startTimeUnixNano) return a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1;
  if (a.attempt !== b.attempt) return a.attempt - b.attempt;
  if (a.endTimeUnixNano !== b.endTimeUnixNano) return a.endTimeUnixNano < b.endTimeUnixNano ? -1 : 1;
  return a.name.localeCompare(b.name) || a.spanId.localeCompare(b.spanId);
}

/**
 * The span tree as waterfall rows: tree order (each span followed by its
 * children, siblings by start time), depth for indentation, and the bar's
 * position on the run's time axis as fractions. Spans whose parent is missing
 * are shown at the top level and flagged; attempts of the same step are marked
 * `attempt n/N`.
 */
export function prepareWaterfall(input: readonly Span[], options: WaterfallOptions = {}): Waterfall {
  const spans = dedupe(input);
  const { start, total } = timeWindow(spans, options);
  const byId = new Map(spans.map((s) => [s.spanId, s]));

  const children = new Map<string, Span[]>();
  const roots: Span[] = [];
  for (const s of spans) {
    const hasParent = s.parentSpanId !== '' && s.parentSpanId !== s.spanId && byId.has(s.parentSpanId);
    if (!hasParent) {
      roots.push(s);
      continue;
    }
    const siblings = children.get(s.parentSpanId);
    if (siblings) siblings.push(s);
    else children.set(s.parentSpanId, [s]);
  }
  for (const siblings of children.values()) siblings.sort(compareSpans);
  roots.sort(compareSpans);

  // Depth-first, iteratively (agent traces can nest deeply).
  const ordered: { span: Span; depth: number; isOrphan: boolean }[] = [];
  const visited = new Set<string>();
  const walk = (root: Span, isOrphan: boolean): void => {
    const stack: { span: Span; depth: number }[] = [{ span: root, depth: 0 }];
    while (stack.length > 0) {
      const item = stack.pop();
      if (!item || visited.has(item.span.spanId)) continue;
      visited.add(item.span.spanId);
      ordered.push({ span: item.span, depth: item.depth, isOrphan: isOrphan && item.span === root });
      const kids = children.get(item.span.spanId) ?? [];
      for (let i = kids.length - 1; i >= 0; i -= 1) {
        const kid = kids[i];
        if (kid) stack.push({ span: kid, depth: item.depth + 1 });
      }
    }
  };
  for (const root of roots) walk(root, root.parentSpanId !== '');
  // Spans in a parent cycle are reachable from no root: show them as orphans too.
  for (const s of [...spans].sort(compareSpans)) if (!visited.has(s.spanId)) walk(s, true);

  const attempts = markAttempts(spans);
  const rows = ordered.map(({ span: s, depth, isOrphan }): WaterfallRow => {
    const offset = nanosBetween(start, s.startTimeUnixNano);
    const length = nanosBetween(s.startTimeUnixNano, s.endTimeUnixNano);
    const offsetFraction = total > 0 ? clamp01(offset / total) : 0;
    const widthFraction = total > 0 ? Math.min(clamp01(length / total), 1 - offsetFraction) : 0;
    const swatch = STEP_KIND_SWATCHES[s.stepKind];
    const isError = s.status.code === 'error' || s.errorType !== '';
    return {
      spanId: s.spanId,
      parentSpanId: s.parentSpanId,
      depth,
      name: s.stepName || s.name,
      detail: spanDetail(s),
      stepKind: s.stepKind,
      kindLabel: swatch.label,
      color: swatch.color,
      offsetFraction: fraction(offsetFraction),
      widthFraction: fraction(widthFraction),
      offsetLabel: `+${formatDuration(offset)}`,
      durationLabel: formatDuration(s.durationNs),
      labelPlacement: labelPlacement(offsetFraction, widthFraction),
      isError,
      errorLabel: isError ? s.errorType || s.status.message || 'error' : '',
      isOrphan,
      childCount: children.get(s.spanId)?.length ?? 0,
      sideEffect: s.sideEffect,
      attempt: attempts.get(s.spanId) ?? null,
    };
  });

  const kinds = new Set(spans.map((s) => s.stepKind));
  return {
    rows,
    start,
    total,
    totalLabel: formatDuration(total),
    ticks: prepareTimeAxis(total, options.tickTarget),
    legend: (['', ...STEP_KINDS] as const)
      .filter((k) => kinds.has(k))
      .map((k) => ({ stepKind: k, ...STEP_KIND_SWATCHES[k] })),
    errorCount: rows.filter((r) => r.isError).length,
    orphanCount: rows.filter((r) => r.isOrphan).length,
  };
}

/** Keep the first span of each id; a duplicate id would otherwise corrupt the tree. */
function dedupe(spans: readonly Span[]): Span[] {
  const seen = new Set<string>();
  return spans.filter((s) => (seen.has(s.spanId) ? false : (seen.add(s.spanId), true)));
}

function timeWindow(spans: readonly Span[], options: WaterfallOptions): { start: UnixNanos; total: Nanoseconds } {
  let start: UnixNanos | undefined = options.runStart;
  let end: UnixNanos | undefined =
    options.runStart !== undefined && options.runDuration !== undefined
      ? addNanos(options.runStart, options.runDuration)
      : options.runStart;
  for (const s of spans) {
    start = start === undefined ? s.startTimeUnixNano : minUnixNanos(start, s.startTimeUnixNano);
    const spanEnd = maxUnixNanos(s.startTimeUnixNano, s.endTimeUnixNano);
    end = end === undefined ? spanEnd : maxUnixNanos(end, spanEnd);
  }
  const origin = start ?? unixNanos(0n);
  return { start: origin, total: end === undefined ? nanoseconds(0) : nanosBetween(origin, end) };
}

/** What the row's name does not already say: `tool web_search`, the model, the span name. */
function spanDetail(s: Span): string {
  const shown = s.stepName || s.name;
  const parts: string[] = [];
  if (s.toolName && s.toolName !== shown) parts.push(`tool ${s.toolName}`);
  if (s.model && !shown.includes(s.model)) parts.push(s.model);
  const nameIsRedundant = [s.stepName, s.toolName, s.model].some((known) => known !== '' && s.name.includes(known));
  if (s.stepName && !nameIsRedundant) parts.push(s.name);
  return parts.join(' · ');
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

/**
 * Marks the attempts of every attempt group with more than one attempt,
 * grouped as the reliability figures group them. Among the spans of one
 * parent: a span with an attempt number continues the latest group of its
 * step (kind and name) unless it is a first attempt; a step span without one
 * continues the group of the unnumbered sibling just before it (by start,
 * end, span id) only when that sibling has the same step name and failed.
 * So a step the agent runs again after a success is a new group, not a retry.
 */
function markAttempts(spans: readonly Span[]): Map<string, AttemptMark> {
  const groups: Span[][] = [];
  const open = new Map<string, Span[]>();
  const unnumbered = new Map<string, Span[]>();
  for (const s of [...spans].sort(compareSpans)) {
    if (s.attempt <= 0) {
      if (s.stepKind === '' || s.stepKind === 'run') continue;
      const siblings = unnumbered.get(s.parentSpanId);
      if (siblings === undefined) unnumbered.set(s.parentSpanId, [s]);
      else siblings.push(s);
      continue;
    }
    const key = [s.parentSpanId, s.stepKind, stepNameOf(s)].join('\u0000');
    const group = s.attempt > 1 ? open.get(key) : undefined;
    if (group !== undefined) group.push(s);
    else {
      const started = [s];
      groups.push(started);
      open.set(key, started);
    }
  }
  for (const siblings of unnumbered.values()) {
    let group: Span[] = [];
    for (const s of siblings) {
      const prev = group.at(-1);
      if (prev === undefined || stepNameOf(prev) !== stepNameOf(s) || prev.status.code !== 'error') {
        group = [s];
        groups.push(group);
      } else group.push(s);
    }
  }

  const marks = new Map<string, AttemptMark>();
  for (const group of groups) {
    const numbers = group.map((s, index) => (s.attempt > 0 ? s.attempt : index + 1));
    const of = Math.max(group.length, ...numbers);
    if (of <= 1) continue;
    const groupKey = group[0]!.spanId;
    group.forEach((s, index) => {
      marks.set(s.spanId, {
        attempt: numbers[index]!,
        of,
        label: `attempt ${numbers[index]}/${of}`,
        failed: s.status.code === 'error' || s.errorType !== '',
        position: index === 0 ? 'first' : index === group.length - 1 ? 'last' : 'middle',
        groupKey,
      });
    });
  }
  return marks;
}

function stepNameOf(s: Span): string {
  return s.stepName || s.name;
}
