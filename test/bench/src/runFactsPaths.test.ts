import { describe, expect, it } from 'vitest';
import { parseRunFactsPaths } from './runFactsPaths.js';

describe('parseRunFactsPaths', () => {
  it('reads both paths of the run-facts counter', () => {
    const text = [
      '# HELP telltale_run_facts_finalised_runs_total Runs whose facts were written, by how.',
      '# TYPE telltale_run_facts_finalised_runs_total counter',
      'telltale_run_facts_finalised_runs_total{path="ingest"} 46512',
      'telltale_run_facts_finalised_runs_total{path="sql"} 21616',
      'telltale_run_facts_pending_runs 12',
    ].join('\n');
    expect(parseRunFactsPaths(text)).toEqual({ ingest: 46512, sql: 21616 });
  });

  it('answers undefined when a path is missing', () => {
    expect(parseRunFactsPaths('telltale_run_facts_finalised_runs_total{path="ingest"} 3\n')).toBeUndefined();
    expect(parseRunFactsPaths('')).toBeUndefined();
  });
});
