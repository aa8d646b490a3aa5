#!/usr/bin/env node
// Packages Telltale the way it ships: build, `pnpm pack` every published
// workspace package, check each tarball, then install the tarballs with npm
// (`--omit=dev`) into an app directory: the contents of the container image.
// The Dockerfile runs this same script, so a step that breaks here breaks the
// image build too.
//
//   node scripts/package.mjs [--out .package] [--no-build] [--no-install]
//
// Writes <out>/tarballs/*.tgz and <out>/app (node_modules/.bin/telltale).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init, parse } from 'es-module-lexer';
import { pnpmCommand } from './pnpm.mjs';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The workspace packages that are published, dependencies first. */
export const PUBLISHED = [
  'packages/semconv',
  'packages/api-contract',
  'packages/sdk',
  'packages/store',
  'packages/collector',
  'packages/analytics',
  'packages/alerts',
  'apps/server',
];

/** An npm install fetches from the registry (chDB's library is the bulk); bounded all the same. */
export const INSTALL_TIMEOUT_MS = 5 * 60_000;

const REQUIRED_FIELDS = ['name', 'version', 'description', 'license', 'repository', 'engines', 'exports', 'files'];

function run(command, args, opts = {}) {
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    ...opts,
  });
  if (result.error !== undefined) throw new Error(`${command} ${args.join(' ')}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited with ${result.status ?? result.signal}:\n${result.stdout ?? ''}${result.stderr ?? ''}`,
    );
  }
  return result.stdout ?? '';
}

function pnpmRun(args, opts) {
  return run(pnpmCommand[0], [...pnpmCommand.slice(1), ...args], { cwd: REPO_ROOT, ...opts });
}

/** `tsc -b` and the dashboard (into apps/server/dist/web). */
export function build() {
  pnpmRun(['run', 'build'], { stdio: 'inherit' });
}

/**
 * Packs every published package into `outDir` (emptied first) and checks each
 * tarball; returns `{ name, dir, tarball }` in dependency order.
 */
export async function packAll(outDir) {
  if (!existsSync(join(REPO_ROOT, 'apps/server/dist/web/index.html'))) {
    throw new Error('apps/server/dist/web/index.html is missing: build first (npm run build)');
  }
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const filters = PUBLISHED.flatMap((dir) => ['--filter', `./${dir}`]);
  const packed = JSON.parse(pnpmRun(['-r', ...filters, 'pack', '--pack-destination', outDir, '--json']));
  const byName = new Map(packed.map((p) => [p.name, p.filename]));
  const result = PUBLISHED.map((dir) => {
    const { name } = JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8'));
    const tarball = byName.get(name);
    if (tarball === undefined) throw new Error(`pnpm pack wrote no tarball for ${name}`);
    return { name, dir, tarball: resolve(outDir, tarball) };
  });
  await checkTarballs(result.map((p) => p.tarball));
  return result;
}

/** Unpacks a tarball into a fresh temporary directory; returns the package root. */
export function unpack(tarball) {
  const into = mkdtempSync(join(tmpdir(), 'telltale-unpack-'));
  run('tar', ['xzf', tarball, '-C', into]);
  return join(into, 'package');
}

function filesUnder(dir) {
  return readdirSync(dir, { recursive: true })
    .map((f) => join(dir, String(f)))
    .filter((f) => statSync(f).isFile());
}

/** The bare package names a module imports (`@scope/name` or `name`), node builtins left out. */
function bareImports(source) {
  const [imports] = parse(source);
  const names = new Set();
  for (const { n } of imports) {
    if (n === undefined || n.startsWith('.') || n.startsWith('/') || n.startsWith('node:')) continue;
    const parts = n.split('/');
    names.add(n.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? n));
  }
  return names;
}

function exportTargets(exportsField) {
  if (typeof exportsField === 'string') return [exportsField];
  return Object.entries(exportsField).flatMap(([condition, value]) =>
    condition === 'source' ? [] : exportTargets(value),
  );
}

/**
 * What a published tarball must satisfy: the manifest fields, no
 * `workspace:` / `catalog:` protocol left, a LICENSE, every `exports` target
 * present, and every package its JavaScript imports declared as a dependency.
 * Returns the problems of one tarball (empty when it is fine).
 */
export async function tarballProblems(tarball) {
  await init;
  const root = unpack(tarball);
  try {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const problems = [];
    for (const field of REQUIRED_FIELDS)
      if (manifest[field] === undefined) problems.push(`package.json has no "${field}"`);
    if (manifest.engines?.node !== '>=20.19')
      problems.push(`engines.node is ${JSON.stringify(manifest.engines?.node)}, not ">=20.19"`);
    if (manifest.license !== 'Apache-2.0') problems.push(`license is ${JSON.stringify(manifest.license)}`);
    if (typeof manifest.repository?.directory !== 'string') problems.push('repository.directory is missing');
    const declared = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
      manifest.name,
    ]);
    for (const section of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
      for (const [dep, range] of Object.entries(manifest[section] ?? {})) {
        if (/^(workspace|catalog|link|file):/.test(range)) problems.push(`${section}.${dep} is still "${range}"`);
      }
    }
    if (!existsSync(join(root, 'LICENSE'))) problems.push('no LICENSE');
    for (const target of exportTargets(manifest.exports ?? {})) {
      if (!existsSync(join(root, target))) problems.push(`exports target ${target} is not in the tarball`);
    }
    for (const file of filesUnder(root).filter(
      (f) => /\.(m?js)$/.test(f) && !f.startsWith(join(root, 'dist', 'web') + sep),
    )) {
      for (const name of bareImports(readFileSync(file, 'utf8'))) {
        if (!declared.has(name)) problems.push(`${relative(root, file)} imports ${name}, which is not a dependency`);
      }
    }
    return problems.map((p) => `${manifest.name}: ${p}`);
  } finally {
    rmSync(dirname(root), { recursive: true, force: true });
  }
}

async function checkTarballs(tarballs) {
  const problems = (await Promise.all(tarballs.map(tarballProblems))).flat();
  if (problems.length > 0) throw new Error(`the packed packages are not publishable:\n  ${problems.join('\n  ')}`);
}

/**
 * `npm install --omit=dev` of the tarballs into `prefix`, as a user (or the
 * image) installs them: no workspace, the registry for everything else.
 */
export function installTarballs(tarballs, prefix, opts = {}) {
  mkdirSync(prefix, { recursive: true });
  run(
    'npm',
    [
      'install',
      '--omit=dev',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--no-package-lock',
      '--prefix',
      prefix,
      ...tarballs,
    ],
    {
      cwd: prefix,
      timeout: opts.timeoutMs ?? INSTALL_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    },
  );
}

async function main(argv) {
  const outIndex = argv.indexOf('--out');
  const out = resolve(
    outIndex >= 0 && argv[outIndex + 1] !== undefined ? argv[outIndex + 1] : join(REPO_ROOT, '.package'),
  );
  if (!argv.includes('--no-build')) build();
  const packed = await packAll(join(out, 'tarballs'));
  for (const p of packed) console.log(`packed ${p.name} → ${relative(process.cwd(), p.tarball)}`);
  if (argv.includes('--no-install')) return;
  const app = join(out, 'app');
  rmSync(app, { recursive: true, force: true });
  installTarballs(
    packed.map((p) => p.tarball),
    app,
  );
  console.log(
    `installed into ${relative(process.cwd(), app) || '.'}: ${join(relative(process.cwd(), app), 'node_modules/.bin/telltale')}`,
  );
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
