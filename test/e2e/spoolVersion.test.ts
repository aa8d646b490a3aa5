import { mkdirSync, mkdtempSync, readdirSync, renameSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processExport, Spool, SPOOL_PAYLOAD_VERSION } from '@telltale/collector';
import { afterEach, describe, expect, it } from 'vitest';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

function request(runId: string, spanId: string): Buffer {
  const now = BigInt(Date.now()) * 1_000_000n;
  return Buffer.from(
    JSON.stringify({
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'spool-version-test' } }] },
          scopeSpans: [
            {
              spans: [
                {
                  traceId: 'b1b2c3d4e5f60718293a4b5c6d7e8f90',
                  spanId,
                  name: 'agent',
                  startTimeUnixNano: now.toString(),
                  endTimeUnixNano: (now + 5_000n).toString(),
                  attributes: [
                    { key: 'telltale.run.id', value: { stringValue: runId } },
                    { key: 'telltale.step.kind', value: { stringValue: 'run' } },
                  ],
                  status: { code: 1 },
                },
              ],
            },
          ],
        },
      ],
    }),
  );
}

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0).reverse()) await done().catch(() => undefined);
});

describe('a spool holding records of another spans schema version', () => {
  it('is refused, not stored, with a message saying what to do; the server keeps serving, and moving the segment aside unblocks it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'telltale-spoolv-'));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    const spoolDir = join(dataDir, 'spool');
    // a real, insertable record, as a build of spans schema version 99 would have spooled it
    const foreign = await Spool.open({ dir: spoolDir, version: 99 });
    const processed = processExport(
      { body: request('foreign-run', '00000000000000f1'), encoding: 'json', projectId: 'default', nowMs: Date.now() },
      undefined,
    );
    expect(processed.spanCount).toBe(1);
    await foreign.append(processed.parts, processed.spanCount);
    await foreign.close();
    const foreignSegment = readdirSync(spoolDir).find((f) => f.startsWith('seg-'))!;

    const telltale = await TelltaleProcess.start({ dataDir });
    cleanup.push(() => telltale.dispose());
    const line = await telltale.waitForLog((l) => l.includes('spans schema version 99'), 0, 30_000);
    expect(line).toContain(`stores version ${SPOOL_PAYLOAD_VERSION}`);
    expect(line).toContain(join(spoolDir, foreignSegment));
    expect(line).toContain('"level":50'); // an error, not a warning
    expect(line).toContain('move');

    // still serving: probes answer and an export is acknowledged (it waits behind the refused record)
    expect((await fetch(`${telltale.url}/healthz`)).status).toBe(200);
    const res = await fetch(`${telltale.url}/v1/traces`, {
      method: 'POST',
      body: request('current-run', '00000000000000c1').toString('utf8'),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    expect((await telltale.getJson('/api/v1/runs/foreign-run')).status).toBe(404);
    expect(await telltale.stop()).toBe(0);
    expect(readdirSync(spoolDir)).toContain(foreignSegment);

    // the operator moves the segment aside: what follows drains, the moved spans stay in the moved file
    const aside = join(dataDir, 'aside');
    mkdirSync(aside);
    renameSync(join(spoolDir, foreignSegment), join(aside, foreignSegment));
    await telltale.restart();
    const deadline = Date.now() + 30_000;
    let current = await telltale.getJson<{ spans?: { spanId: string }[] }>('/api/v1/runs/current-run');
    while (current.status !== 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      current = await telltale.getJson<{ spans?: { spanId: string }[] }>('/api/v1/runs/current-run');
    }
    expect(current.body.spans?.map((s) => s.spanId)).toEqual(['00000000000000c1']);
    expect((await telltale.getJson('/api/v1/runs/foreign-run')).status).toBe(404);
    expect(telltale.logs.filter((l) => l.includes('spans schema version 99')).length).toBe(1);
  });
});
