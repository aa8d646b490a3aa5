import { TelltaleError } from '@telltale/semconv';
import { describe, expect, it } from 'vitest';
import { AdminGate } from './AdminGate.js';
import { generateApiKey } from './apiKey.js';

const KEY = 'k'.repeat(40);

function refusal(gate: AdminGate, authorization: string | undefined): string | undefined {
  try {
    gate.check(authorization);
    return undefined;
  } catch (err) {
    if (err instanceof TelltaleError) return err.code;
    throw err;
  }
}

describe('AdminGate', () => {
  it('lets only the admin key through with --auth keys', () => {
    const gate = new AdminGate('keys', KEY);
    expect(gate.enabled).toBe(true);
    expect(refusal(gate, `Bearer ${KEY}`)).toBeUndefined();
    expect(refusal(gate, `bearer   ${KEY}  `)).toBeUndefined();
    expect(refusal(gate, undefined)).toBe('UNAUTHORIZED');
    expect(refusal(gate, KEY)).toBe('UNAUTHORIZED'); // no Bearer scheme
    expect(refusal(gate, `Bearer ${KEY.slice(1)}`)).toBe('UNAUTHORIZED');
    expect(refusal(gate, `Bearer ${generateApiKey('read').key}`)).toBe('FORBIDDEN');
    expect(refusal(gate, `Bearer ${generateApiKey('ingest').key}`)).toBe('FORBIDDEN');
  });

  it('is off with --auth keys and no admin key, and open in open mode', () => {
    const off = new AdminGate('keys');
    expect(off.enabled).toBe(false);
    expect(refusal(off, `Bearer ${KEY}`)).toBe('FORBIDDEN');
    const open = new AdminGate('none');
    expect(open.enabled).toBe(true);
    expect(refusal(open, undefined)).toBeUndefined();
  });

  it('refuses a short admin key', () => {
    expect(() => new AdminGate('keys', 'short')).toThrow(/at least 24 characters/);
  });
});
