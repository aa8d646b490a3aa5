import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricValue } from './harness/metricValue.js';
import { promtool } from './harness/promtool.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const MiB = 1024 * 1024;

describe("/metrics shows where the embedded engine's memory is", () => {
  let server: TelltaleProcess;

  beforeAll(async () => {
    server = await TelltaleProcess.start();
  }, 90_000);

  afterAll(async () => {
    await server.stop();
  });

  it("reports the engine allocator's memory in use and in memory, and its merges; promtool accepts it", async () => {
    const res = await fetch(`${server.url}/metrics`, { signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(200);
    const text = await res.text();
    const allocated = metricValue(text, 'telltale_engine_allocated_bytes');
    const resident = metricValue(text, 'telltale_engine_resident_bytes');
    // the engine's own memory once its tables are open: more than a few MiB, and its pages at least that
    expect(allocated).toBeGreaterThan(4 * MiB);
    expect(resident).toBeGreaterThanOrEqual(allocated!);
    // and less than the whole process holds
    const processResident = metricValue(text, 'process_resident_memory_bytes');
    expect(resident).toBeLessThan(processResident!);
    expect(metricValue(text, 'telltale_engine_merges')).toBeGreaterThanOrEqual(0);
    expect(metricValue(text, 'telltale_engine_merge_memory_bytes')).toBeGreaterThanOrEqual(0);

    const checked = await promtool(['check', 'metrics'], text);
    expect(checked.code, `${checked.stdout}${checked.stderr}`).toBe(0);
  });

  it("hands memory back: the engine library's pages its set-up touched, and what Node's allocator freed", async () => {
    const deadline = Date.now() + 20_000;
    let text = '';
    for (;;) {
      const res = await fetch(`${server.url}/metrics`, { signal: AbortSignal.timeout(10_000) });
      text = await res.text();
      const trims =
        (metricValue(text, 'telltale_memory_heap_trims_total', { released: 'true' }) ?? 0) +
        (metricValue(text, 'telltale_memory_heap_trims_total', { released: 'false' }) ?? 0);
      if (trims >= 2 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(metricValue(text, 'telltale_memory_heap_trims_total', { released: 'false' })).toBeGreaterThanOrEqual(0);
    // four times a second by default: two within 20 s even on a loaded machine
    expect(
      metricValue(text, 'telltale_memory_heap_trims_total', { released: 'true' })! +
        metricValue(text, 'telltale_memory_heap_trims_total', { released: 'false' })!,
    ).toBeGreaterThanOrEqual(2);
    // dropped once the server listened: most of what the engine's set-up touched of its library
    expect(metricValue(text, 'telltale_memory_library_dropped_bytes_total')).toBeGreaterThan(50 * MiB);
    expect(metricValue(text, 'telltale_memory_return_seconds_total')).toBeGreaterThan(0);
    // the engine runs on: its code comes back from the page cache
    const runs = await server.getJson<{ total: number }>('/api/v1/runs?limit=1');
    expect(runs.status).toBe(200);
    expect(runs.body.total).toBe(0);
  });
});
