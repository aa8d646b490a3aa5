import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from './harness/exportRunWithKey.js';
import { listRuns, runSpans } from './harness/interopApi.js';
import type { ApiSpan } from './harness/interopApi.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const AGENT = fileURLToPath(new URL('../../examples/mcp-agent/agent.mjs', import.meta.url));

/** Runs the example to its end (bounded), returning the JSON lines it printed. */
function runExample(
  endpoint: string,
  timeoutMs: number,
): Promise<Array<{ runId: string; city: string; answer: string | null }>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [AGENT], {
      env: { ...process.env, TELLTALE_ENDPOINT: endpoint },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`example did not finish in ${timeoutMs} ms: ${err}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`example exited ${code}: ${err}`));
      resolve(
        out
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { runId: string; city: string; answer: string | null }),
      );
    });
  });
}

describe('examples/mcp-agent against the real server', () => {
  let telltale: TelltaleProcess;
  beforeAll(async () => {
    telltale = await TelltaleProcess.start();
  });
  afterAll(async () => {
    await telltale.dispose();
  });

  it("records each question as a run whose MCP tool calls are tool steps, with the tool server's spans inside", async () => {
    const printed = await runExample(telltale.url, 40_000);
    expect(printed.map((p) => p.city)).toEqual(['Oslo', 'Lisbon', 'Atlantis']);
    expect(printed[0]!.answer).toBe('Oslo: rain, 4°C (39°F).');
    const ids = printed.map((p) => p.runId);

    // client side: run + plan + 2 tools + llm; server side: 2 tools/call spans + 2 weather lookups (Oslo, Lisbon)
    const { value: runs } = await pollUntil(
      () => listRuns(telltale, '&agent=trip-planner'),
      (rs) => ids.every((id) => rs.some((r) => r.runId === id && r.spans === (id === ids[2] ? 5 : 8))),
      30_000,
    );
    const byId = new Map(runs.map((r) => [r.runId, r]));
    expect(ids.map((id) => byId.get(id)!.outcome)).toEqual(['success', 'success', 'failure']);
    expect(byId.get(ids[0]!)!.sessionId).toBe('mcp-example');

    const spans = await runSpans(telltale, ids[0]!);
    const steps = (s: ApiSpan[]): string[] =>
      s.filter((x) => x.stepKind !== '').map((x) => `${x.stepKind}:${x.stepName}`);
    expect(steps(spans).sort()).toEqual(
      [
        'run:trip-planner',
        'plan:plan',
        'tool:get_weather',
        'tool:to_fahrenheit',
        'retrieval:weather-lookup',
        'llm:write-answer',
      ].sort(),
    );
    const toolStep = spans.find((s) => s.stepName === 'get_weather')!;
    const served = spans.find((s) => s.name === 'tools/call get_weather')!;
    expect(served.stepKind).toBe('');
    expect(served.parentSpanId).toBe(toolStep.spanId);
    expect(spans.find((s) => s.stepName === 'weather-lookup')!.parentSpanId).toBe(served.spanId);

    // the unknown city: get_weather answered isError → a failed tool step
    const failed = await runSpans(telltale, ids[2]!);
    const weather = failed.find((s) => s.stepName === 'get_weather')!;
    expect(weather.stepKind).toBe('tool');
    expect(weather.status.code).toBe('error');
    // the same arguments hash the same, in the agent's process as anywhere
    expect(weather.toolArgsHash).toMatch(/^[0-9a-f]{16}$/);
    expect(toolStep.toolArgsHash).toMatch(/^[0-9a-f]{16}$/);
    expect(weather.toolArgsHash).not.toBe(toolStep.toolArgsHash);
  });
});
