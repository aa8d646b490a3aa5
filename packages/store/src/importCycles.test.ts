import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles } from './testing/importCycles.js';

describe('import cycles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'telltale-cycles-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('packages/store/src has none', () => {
    expect(importCycles(import.meta.dirname)).toEqual([]);
  });

  it('finds a cycle through a type-only import', () => {
    writeFileSync(join(dir, 'a.ts'), "import { b } from './b.js';\nexport const a = b;\n");
    writeFileSync(join(dir, 'b.ts'), "import type { C } from './c.js';\nexport const b: C = 1;\n");
    writeFileSync(join(dir, 'c.ts'), "export { a } from './a.js';\nexport type C = number;\n");
    writeFileSync(join(dir, 'd.ts'), "import { a } from './a.js';\nexport const d = a;\n");
    expect(importCycles(dir)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });
});
