import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TelltaleErrorCode } from '@telltale/semconv';
import { describe, expect, it } from 'vitest';

// Every error that can reach a user is a TelltaleError with a code. A plain Error is allowed only where a failure
// "cannot happen" (an internal invariant) or in test doubles; those places are listed here with the reason, so a new
// one is a decision, not an accident.

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** File → how many plain throws / Error subclasses it may hold, and why. */
const ALLOWED: Readonly<Record<string, { count: number; why: string }>> = {
  'packages/alerts/src/testing/WebhookReceiver.ts': { count: 1, why: 'test double: fails the test that waits' },
  'packages/sdk/src/testing/inMemoryTelltale.ts': { count: 1, why: 'test double: fails the test that looks' },
  'packages/sdk/src/testing/ThrowingSpanExporter.ts': { count: 3, why: 'test double: an exporter that throws' },
  'packages/collector/src/normalise/attributeLookup.ts': { count: 1, why: 'invariant: the FIELD_SOURCES table size' },
  'packages/collector/src/spool/Spool.ts': {
    count: 2,
    why: "invariant: acks follow the order of reads; a lock handed in is the spool directory's own",
  },
  'packages/collector/src/spool/recordFormat.ts': {
    count: 3,
    why: 'invariant: callers pass bounded sizes, weights and versions',
  },
  'packages/collector/src/ingest/ingestWorker.ts': { count: 1, why: 'invariant: the module only runs as a worker' },
  'packages/collector/src/spool/spoolIoWorker.ts': { count: 1, why: 'invariant: the module only runs as a worker' },
  'packages/store/src/internal/storeRunners.ts': { count: 1, why: 'invariant: only Stores register a runner' },
  'packages/store/src/testing/StoreInspector.ts': { count: 3, why: "tests' reads: a bad argument fails the test" },
  'packages/store/src/sql/sqlParts.ts': { count: 1, why: 'invariant: the shape of a fixed SQL template' },
  'packages/store/src/migrations/0007_sessions.ts': { count: 1, why: 'invariant: attribute names are constants' },
  'packages/store/src/facts/incremental/readFactSpans.ts': {
    count: 1,
    why: "invariant: the fact columns it reads are the spans schema's own",
  },
  'packages/store/src/spans/arrow/RecordBatchWriter.ts': { count: 2, why: 'invariant: template positions recorded' },
  'packages/store/src/spans/arrow/encodeSpanRecordBatch.ts': {
    count: 1,
    why: 'invariant: supported hosts (x64, arm64) are little-endian',
  },
  'apps/server/src/api/ApiRegistry.ts': { count: 1, why: 'invariant: each route is registered once at startup' },
  'apps/server/src/demo/SeededRandom.ts': { count: 1, why: 'invariant: the demo picks from fixed, non-empty lists' },
  'apps/server/src/demo/SimulatedFailure.ts': { count: 1, why: "the demo agents' simulated failures, by design" },
  'apps/web/src/api/ApiError.ts': { count: 1, why: "the dashboard's client error: carries the server's code" },
  'apps/web/src/main.tsx': { count: 1, why: 'invariant: index.html has the #root element' },
  'packages/semconv/src/errors.ts': { count: 1, why: 'TelltaleError itself' },
};

const PLAIN = /throw new (?:Error|RangeError|TypeError)\(|class \w+ extends (?:Error|RangeError|TypeError)\b/g;

/** How many plain throws and plain Error subclasses a source text holds (comment lines aside). */
function plainErrorCount(source: string): number {
  const code = source
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/?\*)/.test(line))
    .join('\n');
  return code.match(PLAIN)?.length ?? 0;
}

function productSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return productSources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function scan(): Map<string, number> {
  const found = new Map<string, number>();
  for (const group of ['packages', 'apps']) {
    for (const pkg of readdirSync(join(repoRoot, group))) {
      let files: string[];
      try {
        files = productSources(join(repoRoot, group, pkg, 'src'));
      } catch {
        continue; // a package without src/
      }
      for (const file of files) {
        const n = plainErrorCount(readFileSync(file, 'utf8'));
        if (n > 0) found.set(relative(repoRoot, file), n);
      }
    }
  }
  return found;
}

describe('plain errors in product source', () => {
  it('counts plain throws and Error subclasses, not TelltaleErrors', () => {
    expect(plainErrorCount("throw new Error('x'); throw new RangeError(`y`); class A extends Error {}")).toBe(3);
    expect(plainErrorCount('throw new TelltaleError({ code, message }); class B extends TelltaleError {}')).toBe(0);
    expect(plainErrorCount(' * e.g. `class RateLimitError extends Error`\n// throw new Error(')).toBe(0);
  });

  it('appear only where the allow-list says, as often as it says', () => {
    const found = Object.fromEntries(scan());
    const allowed = Object.fromEntries(Object.entries(ALLOWED).map(([file, { count }]) => [file, count]));
    expect(found).toEqual(allowed);
  });
});

describe('docs/errors.md', () => {
  const doc = readFileSync(join(repoRoot, 'docs/errors.md'), 'utf8');
  const documented = [...doc.matchAll(/^### `([A-Z_]+)`/gm)].map((m) => m[1]);

  it('has a section for every code, and no code that does not exist', () => {
    expect([...documented].sort()).toEqual(Object.keys(TelltaleErrorCode).sort());
  });

  it('is linked from the README', () => {
    expect(readFileSync(join(repoRoot, 'README.md'), 'utf8')).toContain('(docs/errors.md)');
  });
});
