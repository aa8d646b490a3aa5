import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  analyticsFigures,
  CAPACITY_END,
  CAPACITY_START,
  capacityFromRepo,
  renderCapacity,
} from '../../../scripts/capacity.mjs';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string): string => readFileSync(ROOT + path, 'utf8');

describe('capacity model', () => {
  it('docs/scaling.md holds exactly what the script computes from the committed results', () => {
    const doc = read('docs/scaling.md');
    const block = doc.slice(doc.indexOf(CAPACITY_START) + CAPACITY_START.length + 1, doc.indexOf(CAPACITY_END) - 1);
    expect(block).toBe(capacityFromRepo(ROOT));
  });

  it('sizes every rate from the measured per-span costs', () => {
    const out = capacityFromRepo(ROOT);
    for (const rate of ['10k', '100k', '1M', '10M']) expect(out).toMatch(new RegExp(`^\\| ${rate} \\|`, 'm'));
    expect(out).toContain('ClickStack');
    expect(out).toContain('Tempo');
    expect(out).toContain('137k spans/s per core');
    expect(out).toContain('### Assumptions (not measured)');
  });

  it('follows its inputs: more bytes per span on disk means more disk', () => {
    const ingest = JSON.parse(read('bench/results/ingest.json')) as unknown;
    const readme = read('bench/README.md');
    const before = analyticsFigures(readme).spanBytes;
    const heavier = readme.replace(
      `= **${before} bytes/span** (system.parts)`,
      `= **${before * 10} bytes/span** (system.parts)`,
    );
    expect(analyticsFigures(heavier).spanBytes).toBe(before * 10);
    const disk = (text: string): number =>
      Number(/^\| 1M \|(?:[^|]*\|){4} ([\d,.]+) \|/m.exec(text)?.[1]?.replace(/,/g, '') ?? NaN);
    expect(disk(renderCapacity(ingest, heavier))).toBeGreaterThan(disk(renderCapacity(ingest, readme)) * 5);
  });

  it('adds the facts a saturated collector left to the finaliser back to the collector', () => {
    const ingest = JSON.parse(read('bench/results/ingest.json')) as Record<string, unknown>;
    const readme = read('bench/README.md');
    const collectorCores = (paths: { ingest: number; sql: number }): number =>
      Number(/^\| 1M \| ([\d,.]+) \|/m.exec(renderCapacity({ ...ingest, runFactsAtCatchUp: paths }, readme))?.[1]);
    const all = collectorCores({ ingest: 100, sql: 0 });
    const half = collectorCores({ ingest: 50, sql: 50 });
    expect(half).toBeGreaterThan(all);
    // half the runs at the measured compute cost per span, for 1M spans/s at the pods' utilisation target
    const { computeCpuS } = (ingest.ceiling as { workerFacts: { computeCpuS: number } }).workerFacts;
    const rows = (ingest.ceiling as { rows: number }).rows;
    expect(half - all).toBeCloseTo((0.5 * computeCpuS * 1e6) / rows / 0.65, 0);
  });

  it('refuses a README without the analytics results', () => {
    expect(() => analyticsFigures('# Benchmarks\n')).toThrow(/bench:results block/);
  });
});
