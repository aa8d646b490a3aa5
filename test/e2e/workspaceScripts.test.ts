import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every workspace package answers the same scripts (build, dev, lint, test, typecheck), so `npm run X` means the same
// thing in each folder.

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const REQUIRED = ['build', 'dev', 'lint', 'test', 'typecheck'] as const;
/** Packages with nothing to emit: they type-check but have no build. */
const NO_BUILD = new Set(['test/e2e']);

function workspacePackages(): string[] {
  return ['apps', 'packages', 'test'].flatMap((group) =>
    readdirSync(`${repoRoot}${group}`, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(`${repoRoot}${group}/${d.name}/package.json`))
      .map((d) => `${group}/${d.name}`),
  );
}

/** The required scripts a package.json lacks, and a lint script that does not check formatting or allows warnings. */
function scriptProblems(dir: string, scripts: Record<string, string> | undefined): string[] {
  const has = scripts ?? {};
  const problems = REQUIRED.filter((name) => !(name === 'build' && NO_BUILD.has(dir)) && !(name in has)).map(
    (name) => `no "${name}" script`,
  );
  const lint = has['lint'];
  if (lint !== undefined) {
    if (!/eslint .*--max-warnings 0/.test(lint)) problems.push('lint does not run eslint with --max-warnings 0');
    if (!/prettier --check/.test(lint)) problems.push('lint does not run prettier --check');
  }
  return problems;
}

describe('workspace package scripts', () => {
  const packages = workspacePackages();

  it('finds the workspace packages', () => {
    expect(packages).toEqual(expect.arrayContaining(['apps/server', 'apps/web', 'packages/semconv', 'test/e2e']));
  });

  it.each(packages)('%s declares build, dev, lint, test and typecheck', (dir) => {
    const pkg = JSON.parse(readFileSync(`${repoRoot}${dir}/package.json`, 'utf8')) as {
      scripts?: Record<string, string>;
    };
    expect(scriptProblems(dir, pkg.scripts)).toEqual([]);
  });

  it('names what a package lacks', () => {
    expect(scriptProblems('packages/x', { build: 'tsc -b', test: 'vitest', lint: 'eslint .' })).toEqual([
      'no "dev" script',
      'no "typecheck" script',
      'lint does not run eslint with --max-warnings 0',
      'lint does not run prettier --check',
    ]);
  });
});
