import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchTargets, REPO_ROOT } from './benchTargets.js';

describe('benchTargets', () => {
  it('records a full run as the bare command and writes bench/README.md', () => {
    expect(benchTargets('bench:ingest', [], undefined)).toEqual({
      command: 'npm run bench:ingest',
      readmePath: join(REPO_ROOT, 'bench', 'README.md'),
    });
  });

  it('leaves the output flags out of the command: they do not change what is measured', () => {
    expect(benchTargets('bench:ingest', ['--json', 'out.json', '--seconds', '10', '--no-readme'], null)).toEqual({
      command: 'npm run bench:ingest -- --seconds 10',
      readmePath: undefined,
    });
  });

  it('writes a variant only where it is told to', () => {
    expect(benchTargets('bench:dashboard', ['--smoke'], undefined).readmePath).toBeUndefined();
    expect(benchTargets('bench:dashboard', ['--smoke', '--readme', 'x.md'], 'x.md')).toEqual({
      command: 'npm run bench:dashboard -- --smoke',
      readmePath: 'x.md',
    });
  });
});
