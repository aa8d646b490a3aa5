import { readFileSync, writeFileSync } from 'node:fs';
import { RUN_ID_SEND_PLACEHOLDER, type PayloadTemplate } from './agentPayloads.js';

/** Where a template's ids sit in its bytes. */
interface TemplateOffsets {
  /** Start of every 16-byte trace id occurrence. */
  traceIds: number[];
  /** Start of every 8-byte span id occurrence (span_id and parent_span_id fields). */
  spanIds: number[];
  /** Start of the 8-character send placeholder of every run id occurrence. */
  runIdSends: number[];
}

function occurrences(haystack: Buffer, needle: Buffer): number[] {
  const at: number[] = [];
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) at.push(i);
  return at;
}

function locate(t: PayloadTemplate): TemplateOffsets {
  const body = Buffer.from(t.body);
  const traceIds = t.traceIds.flatMap((id) => occurrences(body, Buffer.from(id, 'hex')));
  if (traceIds.length !== t.spans)
    throw new Error(`found ${traceIds.length} trace id occurrences for ${t.spans} spans`);
  const spanIds = t.spanIds.flatMap((id) => {
    const at = occurrences(body, Buffer.from(id, 'hex'));
    if (at.length === 0) throw new Error(`span id ${id} not found in the body`);
    return at;
  });
  // every span id once, plus once per child (parent_span_id); each run has one root
  if (spanIds.length !== 2 * t.spans - t.runs)
    throw new Error(`found ${spanIds.length} span id occurrences, expected ${2 * t.spans - t.runs}`);
  const runIdSends = t.runIds.flatMap((id) =>
    occurrences(body, Buffer.from(id)).map((i) => i + id.length - RUN_ID_SEND_PLACEHOLDER.length),
  );
  if (runIdSends.length !== t.spans)
    throw new Error(`found ${runIdSends.length} run id occurrences for ${t.spans} spans`);
  return { traceIds, spanIds, runIdSends };
}

/**
 * Distinct export requests from a few templates, made cheaply per send: the
 * template's bytes are copied and the send number (1, 2, …) is XORed into
 * the last 4 bytes of every trace and span id (parent ids alike, so the tree
 * holds) and written as 8 hex digits into every run id. XOR with a fixed
 * number is a bijection, so ids stay distinct within a request and no two
 * sends of a template share a trace id or run id; templates differ in their
 * random first 12 bytes. Only fixed-length fields change: the protobuf
 * framing stays valid.
 */
export class PayloadPool {
  private readonly offsets: TemplateOffsets[];
  private sends = 0;

  constructor(
    readonly templates: readonly PayloadTemplate[],
    /** Send numbers start after this (disjoint pools: give each a distinct range). */
    private readonly firstSend = 0,
  ) {
    this.offsets = templates.map(locate);
  }

  /** The i-th distinct request (i ≥ 0): template i mod n, send number firstSend + i + 1. */
  request(i: number): { body: Buffer; spans: number; runs: number; contentSpans: number } {
    const t = this.templates[i % this.templates.length]!;
    const o = this.offsets[i % this.templates.length]!;
    const send = (this.firstSend + i + 1) >>> 0;
    const body = Buffer.allocUnsafe(t.body.length);
    body.set(t.body);
    for (const at of o.traceIds) body.writeUInt32BE((body.readUInt32BE(at + 12) ^ send) >>> 0, at + 12);
    for (const at of o.spanIds) body.writeUInt32BE((body.readUInt32BE(at + 4) ^ send) >>> 0, at + 4);
    const hex = send.toString(16).padStart(8, '0');
    for (const at of o.runIdSends) body.write(hex, at, 'latin1');
    return { body, spans: t.spans, runs: t.runs, contentSpans: t.contentSpans };
  }

  /** The next request in send order. */
  next(): { body: Buffer; spans: number; runs: number; contentSpans: number } {
    return this.request(this.sends++);
  }

  get sent(): number {
    return this.sends;
  }

  /** Saves the templates (for the ceiling child process). */
  save(path: string): void {
    writeFileSync(
      path,
      JSON.stringify(this.templates.map((t) => ({ ...t, body: Buffer.from(t.body).toString('base64') }))),
    );
  }

  static load(path: string, firstSend: number): PayloadPool {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as (Omit<PayloadTemplate, 'body'> & { body: string })[];
    return new PayloadPool(
      raw.map((t) => ({ ...t, body: new Uint8Array(Buffer.from(t.body, 'base64')) })),
      firstSend,
    );
  }
}
