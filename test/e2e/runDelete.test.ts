import { existsSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './harness/runCli.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

/** One run of `spans` spans (a root and its children) as an OTLP/JSON export. */
function runExport(traceId: string, spans: number): unknown {
  const now = BigInt(Date.now()) * 1_000_000n;
  const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
  const span = (i: number) => ({
    traceId,
    spanId: `${traceId.slice(0, 14)}${String(i).padStart(2, '0')}`,
    ...(i === 0 ? {} : { parentSpanId: `${traceId.slice(0, 14)}00` }),
    name: i === 0 ? 'agent' : `tool ${i}`,
    kind: 1,
    startTimeUnixNano: String(now + BigInt(i) * 1_000_000n),
    endTimeUnixNano: String(now + 500_000_000n - BigInt(i)),
    attributes: [str('telltale.step.kind', i === 0 ? 'run' : 'tool')],
  });
  return {
    resourceSpans: [
      {
        resource: { attributes: [str('service.name', 'deleting')] },
        scopeSpans: [{ scope: { name: 'delete-test' }, spans: Array.from({ length: spans }, (_, i) => span(i)) }],
      },
    ],
  };
}

/**
 * Deleting a run through the admin API of a real server whose spool drain a
 * test holds (TELLTALE_FAILPOINT=hold-inserts): spans acknowledged before a
 * delete are waited for, never left to bring the run back after it.
 */
describe('deleting a run while its spans are still in the spool', () => {
  const holdDir = mkdtempSync(join(tmpdir(), 'telltale-delete-hold-'));
  const holdFile = join(holdDir, 'release-inserts');
  let telltale: TelltaleProcess;

  const send = async (traceId: string, spans: number): Promise<void> => {
    const res = await fetch(`${telltale.url}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(runExport(traceId, spans)),
      signal: AbortSignal.timeout(30_000),
    });
    expect(res.status).toBe(200);
  };
  const del = async (project: string, runId: string): Promise<{ status: number; body: Record<string, unknown> }> => {
    const res = await fetch(`${telltale.url}/api/v1/admin/projects/${project}/runs/${runId}`, {
      method: 'DELETE',
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    writeFileSync(holdFile, '');
    telltale = await TelltaleProcess.start({
      env: { TELLTALE_FAILPOINT: 'hold-inserts', TELLTALE_FAILPOINT_HOLD_FILE: holdFile },
    });
  }, 60_000);
  afterAll(async () => {
    writeFileSync(holdFile, '');
    await telltale?.dispose();
    rmSync(holdDir, { recursive: true, force: true });
  });

  it('waits for the run’s acknowledged spans, then deletes them all', { timeout: 60_000 }, async () => {
    unlinkSync(holdFile);
    const runId = 'd1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1';
    await send(runId, 4);
    const deleting = del('default', runId);
    // the delete is waiting for the drain, which the test releases
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    writeFileSync(holdFile, '');
    expect(await deleting).toEqual({ status: 200, body: { deleted: { runId, spans: 4, contentSpans: 0 } } });
    expect((await telltale.getJson(`/api/v1/runs/${runId}`)).status).toBe(404);
  });

  it(
    'refuses (503, nothing deleted) when the spans are not stored in time, and the run stays',
    { timeout: 60_000 },
    async () => {
      unlinkSync(holdFile);
      const runId = 'd2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2';
      await send(runId, 3);
      const refused = await del('default', runId);
      expect(refused.status).toBe(503);
      expect(JSON.stringify(refused.body)).toContain('still being stored');
      writeFileSync(holdFile, '');
      const deadline = Date.now() + 20_000;
      while ((await telltale.getJson(`/api/v1/runs/${runId}`)).status !== 200) {
        if (Date.now() > deadline) throw new Error(`run ${runId} never stored`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
  );

  it('deletes once when asked twice at the same time, and names a project that does not exist', async () => {
    const runId = 'd2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2';
    const answers = await Promise.all([del('default', runId), del('default', runId)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404]);
    expect(answers.find((a) => a.status === 200)?.body).toEqual({ deleted: { runId, spans: 3, contentSpans: 0 } });
    const missing = await del('nope', runId);
    expect(missing.status).toBe(404);
    expect(JSON.stringify(missing.body)).toContain('no project nope');
  });

  it('the CLI on a data directory refuses one that does not exist, rather than making an empty store there', async () => {
    const nowhere = join(holdDir, 'no-such-data-dir');
    const res = await runCli(['runs', 'delete', 'r1', '--data-dir', nowhere]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`no data directory at ${nowhere}`);
    expect(existsSync(nowhere)).toBe(false);
    const empty = await runCli(['runs', 'delete', '', '--data-dir', nowhere]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('invalid run id');
  });
});
