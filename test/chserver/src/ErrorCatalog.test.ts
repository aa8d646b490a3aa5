import { describe, expect, it } from 'vitest';
import { ErrorCatalog } from './ErrorCatalog.js';

const catalog = new ErrorCatalog([
  [62, 'SYNTAX_ERROR'],
  [60, 'UNKNOWN_TABLE'],
  [108, 'NO_DATA_TO_INSERT'],
]);

describe('ErrorCatalog.from', () => {
  it('keeps the innermost message of nested chDB errors', () => {
    const e = catalog.from(
      new Error(
        'Code: 108. DB::Exception: Code: 108. DB::Exception: No data to insert. (NO_DATA_TO_INSERT) (version 26.7.2.1). (NO_DATA_TO_INSERT)',
      ),
    );
    expect([e.code, e.type, e.message]).toEqual([108, 'NO_DATA_TO_INSERT', 'No data to insert']);
    expect(e.toBody('1.2')).toBe('Code: 108. DB::Exception: No data to insert. (NO_DATA_TO_INSERT) (version 1.2)\n');
  });

  it('prefers the code chDB attaches, and names codes without a name', () => {
    const err = Object.assign(
      new Error(
        "Unknown table expression identifier 'x' in scope SELECT * FROM x. Maybe you meant system.one?. (UNKNOWN_TABLE)",
      ),
      { clickhouseCode: 60 },
    );
    const e = catalog.from(err);
    expect([e.code, e.type, e.message]).toEqual([
      60,
      'UNKNOWN_TABLE',
      "Unknown table expression identifier 'x' in scope SELECT * FROM x. Maybe you meant system.one?",
    ]);
    expect(catalog.from(Object.assign(new Error('Code: 62. DB::Exception: bad'), { clickhouseCode: 62 })).type).toBe(
      'SYNTAX_ERROR',
    );
  });

  it('turns anything else into STD_EXCEPTION', () => {
    const e = catalog.from(new TypeError('boom'));
    expect([e.code, e.type, e.message]).toEqual([1001, 'STD_EXCEPTION', 'boom']);
  });
});
