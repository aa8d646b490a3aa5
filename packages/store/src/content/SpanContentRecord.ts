/** One chat message of a span's content: its role and its text (non-text parts as JSON). */
export interface ContentMessage {
  role: string;
  content: string;
}

/** One side (input or output) of a span's content, as the collector read it from any convention. */
export interface ContentHalf {
  messages?: ContentMessage[];
  /** A tool call's arguments (or a model's tool calls), as sent: usually JSON text. */
  toolArguments?: string;
  /** A tool call's result, as sent. */
  toolResult?: string;
  /** Free text or JSON of unknown shape (`input.value`, `ai.response.text`…). */
  text?: string;
  /**
   * Ingest only, never read back: a message list kept as the JSON text it
   * arrived in (its only source on this side), turned into `messages` when
   * read (readStoredHalf) rather than parsed and encoded again at ingest.
   */
  verbatim?: VerbatimMessages;
}

/** A message list attribute as received: JSON text in one of the shapes `messagesFromJson` reads. */
export interface VerbatimMessages {
  shape: 'genAiMessages' | 'chatMessages';
  json: string;
  /** The JSON as valid UTF-8, when the collector has it so (written as it is, never decoded). */
  readonly utf8?: Uint8Array;
}

/** The content of one span, kept apart from its span row (table `span_content`). */
export interface SpanContentRecord {
  projectId: string;
  traceId: string;
  spanId: string;
  runId: string;
  startTimeUnixNano: bigint;
  input: ContentHalf;
  output: ContentHalf;
  /** True when the content was cut to the per-span limit. */
  truncated: boolean;
  /** UTF-8 bytes of the content's text as received, before any cut. */
  originalBytes: number;
  /** `full` | `metadata` as the SDK declared it, '' when not said. */
  capture: string;
  /** Strings the SDK's redactors changed (0 when not said). */
  redactions: number;
}
