import { readFileSync } from 'node:fs';
import { z } from 'zod';

const PackageJson = z.object({ name: z.string(), version: z.string() });

/**
 * The version of this package (`@telltale/server`), read from its own
 * package.json: one directory above this file in src/ and in dist/ alike,
 * inside the published package.
 */
export function packageVersion(): string {
  const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  return PackageJson.parse(JSON.parse(text)).version;
}
