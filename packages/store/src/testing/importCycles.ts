import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Static relative import and re-export specifiers of a module, type-only ones included. */
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(RELATIVE_IMPORT)].map((m) => resolve(dirname(file), (m[1] ?? '').replace(/\.js$/, '.ts')));
}

/**
 * Every import cycle among the TypeScript modules under `dir` (relative
 * imports only, `import type` included), each as the list of its modules
 * relative to `dir`, the first repeated at the end. Empty when there is none.
 */
export function importCycles(dir: string): string[][] {
  const files = tsFiles(resolve(dir));
  const known = new Set(files);
  const edges = new Map(files.map((f) => [f, importsOf(f).filter((t) => known.has(t))]));
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      const seen = state.get(next);
      if (seen === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].map((f) => relative(dir, f)));
      else if (seen === undefined) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return cycles;
}
