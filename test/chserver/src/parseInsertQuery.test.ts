import { describe, expect, it } from 'vitest';
import { parseInsertQuery } from './parseInsertQuery.js';

describe('parseInsertQuery', () => {
  it('splits what @clickhouse/client sends for insert() and exec() with values', () => {
    expect(parseInsertQuery('INSERT INTO spans FORMAT JSONEachRow')).toEqual({
      target: 'INSERT INTO spans',
      settings: '',
      format: 'JSONEachRow',
      dataStart: 36,
    });
    expect(parseInsertQuery('INSERT INTO spans (a, b) FORMAT ArrowStream')).toMatchObject({
      target: 'INSERT INTO spans (a, b)',
      format: 'ArrowStream',
    });
    expect(parseInsertQuery('INSERT INTO t (* EXCEPT (c)) FORMAT JSONCompactEachRow')).toMatchObject({
      target: 'INSERT INTO t (* EXCEPT (c))',
      format: 'JSONCompactEachRow',
    });
  });

  it('keeps a SETTINGS clause apart, and table names that look like keywords', () => {
    expect(
      parseInsertQuery("insert into db.t SETTINGS insert_deduplication_token = 'x FORMAT y' format RowBinary"),
    ).toMatchObject({
      target: 'insert into db.t',
      settings: "SETTINGS insert_deduplication_token = 'x FORMAT y'",
      format: 'RowBinary',
    });
    expect(parseInsertQuery('INSERT INTO TABLE `format` FORMAT CSV')).toMatchObject({
      target: 'INSERT INTO TABLE `format`',
      format: 'CSV',
    });
    expect(parseInsertQuery('INSERT INTO format FORMAT CSV')).toMatchObject({
      target: 'INSERT INTO format',
      format: 'CSV',
    });
    expect(parseInsertQuery("INSERT INTO FUNCTION file('a.csv', 'CSV') FORMAT CSV")).toMatchObject({
      target: "INSERT INTO FUNCTION file('a.csv', 'CSV')",
    });
  });

  it('finds where inline data starts, as ClickHouse does, without reading it', () => {
    const sql = 'INSERT INTO t FORMAT JSONEachRow\n{"s":"\'"}\n\n{"s":"x"}';
    expect(sql.slice(parseInsertQuery(sql)!.dataStart)).toBe('{"s":"\'"}\n\n{"s":"x"}');
    const sameLine = 'INSERT INTO t FORMAT CSV   1,2';
    expect(sameLine.slice(parseInsertQuery(sameLine)!.dataStart)).toBe('1,2');
    expect(parseInsertQuery('INSERT INTO t VALUES (1)')).toMatchObject({
      target: 'INSERT INTO t',
      format: 'Values',
      dataStart: 20,
    });
  });

  it('leaves inserts without data, and other statements, alone', () => {
    expect(parseInsertQuery('INSERT INTO t SELECT * FROM u')).toBeUndefined();
    expect(parseInsertQuery('INSERT INTO t (a) WITH 1 AS x SELECT x')).toBeUndefined();
    expect(parseInsertQuery("INSERT INTO t FROM INFILE 'a' FORMAT CSV")).toBeUndefined();
    expect(parseInsertQuery('SELECT 1 FORMAT JSON')).toBeUndefined();
    expect(parseInsertQuery('INSERT INTO t')).toBeUndefined();
  });
});
