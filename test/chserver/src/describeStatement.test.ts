import { describe, expect, it } from 'vitest';
import { describeStatement } from './describeStatement.js';

describe('describeStatement', () => {
  it('finds the output format, placeholders and keyword', () => {
    expect(describeStatement('select {a:String}, {b : Array(String)} \nFORMAT JSONEachRow')).toEqual({
      keyword: 'SELECT',
      format: 'JSONEachRow',
      placeholders: ['a', 'b'],
      secondStatementAt: undefined,
    });
    expect(describeStatement('SELECT 1 FORMAT JSON SETTINGS max_threads = 1').format).toBe('JSON');
    expect(describeStatement('SELECT format FROM t').format).toBeUndefined();
    expect(describeStatement("SELECT '{x:String}' /* {y:String} */ -- {z:String}").placeholders).toEqual([]);
    expect(describeStatement('  -- nothing\n').keyword).toBe('');
  });

  it('tells a second statement from a trailing semicolon', () => {
    expect(describeStatement('SELECT 1;').secondStatementAt).toBeUndefined();
    expect(describeStatement("SELECT ';' ; ").secondStatementAt).toBeUndefined();
    expect(describeStatement('SELECT 1; SELECT 2').secondStatementAt).toBe(10);
  });
});
