import { readFileSync, readdirSync } from 'node:fs';
import { z } from 'zod';

const recordingSchema = z.object({
  status: z.number().int(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.unknown().optional(),
  events: z.array(z.object({ event: z.string().optional(), data: z.unknown() })).optional(),
});

/** A recorded provider answer: a JSON body, or server-sent events. */
export type LlmRecording = z.infer<typeof recordingSchema>;

const scenarioSchema = z.object({
  description: z.string(),
  /** Chosen when the first user message contains this text. */
  match: z.string().min(1),
  /** One recorded answer per model turn; turn n answers a request holding n assistant messages. */
  turns: z.array(recordingSchema).min(1),
  /** Past the last turn, answer the last one again (a model stuck in a loop) instead of 404. */
  repeatLast: z.boolean().default(false),
});

/** A recorded conversation: the model's answers, turn by turn. */
export type Scenario = z.infer<typeof scenarioSchema> & { name: string };

const RECORDINGS = new URL('../recordings/', import.meta.url);

function readJson(url: URL): unknown {
  return JSON.parse(readFileSync(url, 'utf8'));
}

/** Reads `recordings/<name>.json` (e.g. `openai-chat`, `openai-chat.sse`, `anthropic-429`). */
export function recording(name: string): LlmRecording {
  return recordingSchema.parse(readJson(new URL(`${name}.json`, RECORDINGS)));
}

/** Reads every `recordings/scenarios/<group>/<name>.json`, named `<group>/<name>`. */
export function loadScenarios(): Scenario[] {
  const root = new URL('scenarios/', RECORDINGS);
  const out: Scenario[] = [];
  for (const group of readdirSync(root).sort()) {
    for (const file of readdirSync(new URL(`${group}/`, root)).sort()) {
      if (!file.endsWith('.json')) continue;
      const name = `${group}/${file.slice(0, -'.json'.length)}`;
      const parsed = scenarioSchema.safeParse(readJson(new URL(`${group}/${file}`, root)));
      if (!parsed.success) throw new Error(`scenario ${name}: ${z.prettifyError(parsed.error)}`);
      out.push({ ...parsed.data, name });
    }
  }
  return out;
}

/** The recorded usage of a chat completion answer (`body.usage`), for tests computing expected totals. */
export function chatUsage(r: LlmRecording): {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
} {
  const usage = (r.body as { usage?: Record<string, unknown> } | undefined)?.usage;
  if (usage === undefined) throw new Error('the recording has no usage');
  const details = usage.prompt_tokens_details as { cached_tokens?: number } | undefined;
  return {
    prompt_tokens: usage.prompt_tokens as number,
    completion_tokens: usage.completion_tokens as number,
    cached_tokens: details?.cached_tokens ?? 0,
  };
}
