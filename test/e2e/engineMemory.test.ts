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
});
