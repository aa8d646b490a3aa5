import { MAX_RUN_ID_LENGTH } from '@telltale/semconv';
import { describe, expect, it } from 'vitest';
import { boundedRunId } from './boundedRunId.js';

describe('boundedRunId', () => {
  it('keeps an id the API addresses as it is', () => {
    expect(boundedRunId('run-1')).toBe('run-1');
    const longest = 'x'.repeat(MAX_RUN_ID_LENGTH);
    expect(boundedRunId(longest)).toBe(longest);
  });

  it('bounds a longer one to its start, ~ and a hash of the whole, stable and apart from its neighbours', () => {
    const a = boundedRunId(`${'x'.repeat(MAX_RUN_ID_LENGTH)}a`);
    const b = boundedRunId(`${'x'.repeat(MAX_RUN_ID_LENGTH)}b`);
    expect(a).toHaveLength(MAX_RUN_ID_LENGTH);
    expect(a).not.toBe(b);
    expect(boundedRunId(`${'x'.repeat(MAX_RUN_ID_LENGTH)}a`)).toBe(a);
  });

  it('never cuts a surrogate pair', () => {
    const id = `${'x'.repeat(MAX_RUN_ID_LENGTH - 18)}😀${'y'.repeat(40)}`;
    const bounded = boundedRunId(id);
    expect(bounded).toHaveLength(MAX_RUN_ID_LENGTH - 1);
    expect(bounded.endsWith(`x~${bounded.slice(-16)}`)).toBe(true);
    expect(Buffer.from(bounded, 'utf8').toString('utf8')).toBe(bounded);
  });
});
