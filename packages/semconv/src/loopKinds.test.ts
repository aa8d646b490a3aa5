import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TelltaleError } from './errors.js';
import {
  LIVE_LOOP_KINDS,
  LOOP_KIND_DEFINITIONS,
  LOOP_KIND_OF_VARIANT,
  LOOP_KINDS,
  LOOP_VARIANT_CODE,
  LOOP_VARIANTS,
} from './loopKinds.js';
import {
  DEFAULT_LOOP_THRESHOLDS,
  LOOP_THRESHOLD_DEFINITIONS,
  LOOP_THRESHOLD_NAMES,
  loopThresholdRange,
  resolveLoopThresholds,
} from './loopKinds.js';

const DOC = new URL('../../../docs/metrics.md', import.meta.url);

/** The docs' kinds table, as the definition says it should read. */
function kindsTable(): string {
  const rows = LOOP_KIND_DEFINITIONS.flatMap((d) =>
    d.variants.map(
      (v) =>
        `| \`${d.kind}\` | ${d.label} | \`${v.variant}\` (${v.code}) | ${v.rule} | ${d.count} | ${d.live ? 'yes' : 'no'} |`,
    ),
  );
  return ['| Kind | Label | Variant (code) | Rule | Count | Live |', '|---|---|---|---|---|---|', ...rows].join('\n');
}

/** The docs' thresholds table. */
function thresholdsTable(): string {
  const rows = LOOP_THRESHOLD_NAMES.map((name) => {
    const d = LOOP_THRESHOLD_DEFINITIONS[name];
    const kinds = d.kinds.map((k) => `\`${k}\``).join(', ');
    return `| \`${name}\` | ${d.default} | ${loopThresholdRange(name)} | ${kinds} | ${d.inRunFacts ? 'yes' : 'no'} | ${d.description} |`;
  });
  return [
    '| Threshold | Default | Allowed | Kinds | In run facts | Meaning |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

describe('loop kinds', () => {
  it('numbers the variants 1, 2, 3, … without gaps, each under one kind', () => {
    const codes = LOOP_VARIANTS.map((v) => LOOP_VARIANT_CODE[v]);
    expect(codes).toEqual(codes.map((_, i) => i + 1));
    expect(new Set(LOOP_VARIANTS).size).toBe(LOOP_VARIANTS.length);
    expect(new Set(LOOP_KINDS).size).toBe(LOOP_KINDS.length);
    for (const v of LOOP_VARIANTS) expect(LOOP_KINDS).toContain(LOOP_KIND_OF_VARIANT[v]);
  });

  it('keeps the codes the run facts store', () => {
    // stored rows keep their codes: changing one re-labels every stored detection
    expect(LOOP_VARIANT_CODE).toEqual({
      tool_args: 1,
      state_hash: 2,
      failed_validation: 3,
      alternation: 4,
      step_count: 5,
    });
    expect(LIVE_LOOP_KINDS).toEqual(['repeated_action', 'no_progress', 'ping_pong']);
  });

  it('gives every kind a threshold that tunes it, and every threshold a default in its range', () => {
    for (const kind of LOOP_KINDS)
      expect(
        LOOP_THRESHOLD_NAMES.some((n) => (LOOP_THRESHOLD_DEFINITIONS[n].kinds as readonly string[]).includes(kind)),
        kind,
      ).toBe(true);
    expect(resolveLoopThresholds()).toEqual(DEFAULT_LOOP_THRESHOLDS);
  });
});

describe('resolveLoopThresholds', () => {
  it('applies overrides and ignores undefined ones', () => {
    expect(resolveLoopThresholds({ repeat: 4, pingPongCycles: undefined })).toEqual({
      ...DEFAULT_LOOP_THRESHOLDS,
      repeat: 4,
    });
  });

  it.each([
    ['repeat', 1, /loop threshold repeat must be a whole number from 2 to 1000, got 1/],
    ['pingPongCycles', 2.5, /pingPongCycles must be a whole number/],
    ['runawayMultiplier', 0, /runawayMultiplier must be a number > 0 and ≤ 1000, got 0/],
    ['runawayMultiplier', Number.NaN, /runawayMultiplier/],
    ['runawayHardCap', 1_000_001, /runawayHardCap must be a whole number from 1 to 1000000/],
  ] as const)('rejects %s = %s as a bad request naming it', (name, value, message) => {
    let caught: unknown;
    try {
      resolveLoopThresholds({ [name]: value });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(TelltaleError);
    expect((caught as TelltaleError).code).toBe('BAD_REQUEST');
    expect((caught as TelltaleError).message).toMatch(message);
  });
});

describe('docs/metrics.md', () => {
  const text = readFileSync(DOC, 'utf8');
  it('has the loop kinds table of the definition', () => {
    expect(text, `docs/metrics.md should contain:\n${kindsTable()}`).toContain(kindsTable());
  });
  it('has the loop thresholds table of the definition', () => {
    expect(text, `docs/metrics.md should contain:\n${thresholdsTable()}`).toContain(thresholdsTable());
  });
});
