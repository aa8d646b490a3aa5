import type { SpanContent } from '@telltale/api-contract';
import { structuredText } from './prepareContent';
import type { LoopEvidenceRef } from './prepareRunLoops';

/** Calls shown side by side per detection; the rest are counted. */
export const LOOP_EVIDENCE_COLUMNS = 6;

export interface LoopCall {
  spanId: string;
  /** `#1`, `#2`… in the order of the detection's evidence. */
  label: string;
  /** What the step was given: the tool's arguments, else its input text; undefined when no content was kept. */
  input: unknown;
  /** The tool's result or output text, if kept. */
  output: unknown;
  hasContent: boolean;
  /** The input is the same as the first call's, or with no input kept, the output (the repeat the detection is about). */
  sameAsFirst: boolean;
}

export interface LoopEvidenceView {
  key: string;
  calls: LoopCall[];
  /** Evidence calls past LOOP_EVIDENCE_COLUMNS. */
  moreCalls: number;
  /** Shown calls with content kept. */
  withContent: number;
}

function inputOf(content: SpanContent): unknown {
  const side = content.input;
  if (side.toolArguments !== undefined) return side.toolArguments;
  if (side.messages !== undefined && side.messages.length > 0) return side.messages;
  return side.text === undefined ? undefined : (structuredText(side.text) ?? side.text);
}

function outputOf(content: SpanContent): unknown {
  const side = content.output;
  if (side.toolResult !== undefined) return side.toolResult;
  if (side.messages !== undefined && side.messages.length > 0) return side.messages;
  return side.text === undefined ? undefined : (structuredText(side.text) ?? side.text);
}

/** Each detection's repeated calls with what they were given, picked from the run's content (fetched once). */
export function prepareLoopEvidence(
  refs: readonly LoopEvidenceRef[],
  spans: readonly SpanContent[],
): LoopEvidenceView[] {
  const bySpan = new Map(spans.map((s) => [s.spanId, s]));
  return refs.map((ref) => {
    const shown = ref.spanIds.slice(0, LOOP_EVIDENCE_COLUMNS);
    let first: string | undefined;
    const calls = shown.map((spanId, i): LoopCall => {
      const content = bySpan.get(spanId);
      const input = content === undefined ? undefined : inputOf(content);
      const output = content === undefined ? undefined : outputOf(content);
      // a failed validation repeats its output: with no input, the output is what repeats
      const key =
        input !== undefined
          ? `in ${JSON.stringify(input)}`
          : output !== undefined
            ? `out ${JSON.stringify(output)}`
            : undefined;
      if (i === 0) first = key;
      return {
        spanId,
        label: `#${i + 1}`,
        input,
        output,
        hasContent: content !== undefined,
        sameAsFirst: i > 0 && key !== undefined && key === first,
      };
    });
    return {
      key: ref.key,
      calls,
      moreCalls: ref.spanIds.length - shown.length,
      withContent: calls.filter((c) => c.hasContent).length,
    };
  });
}
