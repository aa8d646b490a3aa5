import { rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { ChdbEngine, EngineResult } from './ChdbEngine.js';
import { describeStatement } from './describeStatement.js';
import { parseInsertQuery, type InsertQuery } from './parseInsertQuery.js';
import { parseMultipart } from './parseMultipart.js';
import { readBody, saveBody, type BodyLimits } from './readBody.js';
import { addQueryParam, type RequestParams } from './readRequestParams.js';
import type { Summary } from './sendResponse.js';
import { sqlString } from './sqlQuote.js';

export interface QueryLimits {
  /** Largest query text (URL excluded) in bytes. */
  maxQueryBytes: number;
  /** Largest INSERT data body in bytes (after decompression). */
  maxDataBytes: number;
}

/** What a query request produced, ready to send. */
export interface QueryOutcome {
  format: string;
  data: Uint8Array;
  summary: Summary;
}

const FORMAT_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/**
 * Turns one `GET|POST /` request into engine work, the way a ClickHouse
 * server reads it: the query from the `query` URL parameter and/or the body
 * (or a multipart body), and the data of an `INSERT … FORMAT F` from the
 * body. INSERT data never goes inline to chDB — its inline data stops at the
 * first blank line — but through a temporary file and `FROM INFILE`, so any
 * format, binary ones included, lands whole.
 */
export class QueryHandler {
  private files = 0;

  constructor(
    private readonly engine: ChdbEngine,
    private readonly tmpDir: string,
    private readonly limits: QueryLimits,
  ) {}

  async run(req: IncomingMessage, rp: RequestParams): Promise<QueryOutcome> {
    const catalog = this.engine.catalog;
    const hasBody = req.method === 'POST';
    if (rp.query !== undefined) {
      const insert = parseInsertQuery(rp.query);
      if (insert !== undefined && insert.dataStart >= rp.query.trimEnd().length) {
        return this.insert(rp, insert, hasBody ? req : Buffer.alloc(0));
      }
      const rest = hasBody ? (await readBody(req, this.textLimits())).toString('utf8') : '';
      return this.text(rp, rest.length > 0 ? `${rp.query}\n${rest}` : rp.query);
    }
    if (!hasBody) throw catalog.error('SYNTAX_ERROR', 'Empty query');
    const body = await readBody(req, this.textLimits());
    const parts = parseMultipart(body, req.headers['content-type']);
    if (parts !== undefined) {
      for (const [name, value] of parts) {
        if (name.startsWith('param_')) addQueryParam(rp, name.slice('param_'.length), value, catalog);
      }
      return this.text(rp, parts.get('query') ?? '');
    }
    // Positions in a latin1 string are byte offsets, so inline binary data is cut out of the body unchanged.
    const latin1 = body.toString('latin1');
    const insert = parseInsertQuery(latin1);
    if (insert !== undefined && insert.format !== 'Values' && insert.dataStart < latin1.length) {
      const utf8 = (s: string): string => Buffer.from(s, 'latin1').toString('utf8');
      return this.insert(
        rp,
        { ...insert, target: utf8(insert.target), settings: utf8(insert.settings) },
        body.subarray(insert.dataStart),
      );
    }
    return this.text(rp, body.toString('utf8'));
  }

  /** A statement without separate data (inline VALUES included: chDB reads those whole). */
  private async text(rp: RequestParams, sql: string): Promise<QueryOutcome> {
    const catalog = this.engine.catalog;
    const shape = describeStatement(sql);
    if (shape.keyword === '') throw catalog.error('SYNTAX_ERROR', 'Empty query');
    if (shape.secondStatementAt !== undefined) {
      throw catalog.error(
        'SYNTAX_ERROR',
        `Syntax error (Multi-statements are not allowed): failed at position ${shape.secondStatementAt + 1}`,
      );
    }
    if (shape.keyword === 'SET' && /\breadonly\b/i.test(sql)) {
      throw catalog.error(
        'NOT_IMPLEMENTED',
        'This test server does not change readonly: it would lock its one session',
      );
    }
    const format = shape.format ?? rp.defaultFormat;
    const result = await this.engine.run({
      sql,
      params: rp.params,
      settings: rp.settings,
      database: rp.database,
      format: rp.defaultFormat,
      placeholders: shape.placeholders,
      changesSession: shape.keyword === 'SET' || shape.keyword === 'USE',
    });
    const isInsert = shape.keyword === 'INSERT';
    return { format, data: result.data, summary: summarise(result, isInsert) };
  }

  /** INSERT with data: the data goes to a temporary file, the engine reads it with FROM INFILE. */
  private async insert(rp: RequestParams, insert: InsertQuery, data: IncomingMessage | Buffer): Promise<QueryOutcome> {
    const catalog = this.engine.catalog;
    if (!FORMAT_NAME.test(insert.format))
      throw catalog.error('UNKNOWN_FORMAT', `Unknown input format ${insert.format}`);
    const path = join(this.tmpDir, `insert-${++this.files}.data`);
    try {
      if (Buffer.isBuffer(data)) {
        if (data.length > this.limits.maxDataBytes)
          throw catalog.error('QUERY_IS_TOO_LARGE', `Request body is larger than ${this.limits.maxDataBytes} bytes`);
        await writeFile(path, data);
      } else {
        await saveBody(data, path, { limit: this.limits.maxDataBytes, catalog });
      }
      const sql = `${insert.target} FROM INFILE ${sqlString(path)} COMPRESSION 'none' ${insert.settings} FORMAT ${insert.format}`;
      const result = await this.engine.run({
        sql,
        params: rp.params,
        settings: rp.settings,
        database: rp.database,
        format: rp.defaultFormat,
        placeholders: describeStatement(`${insert.target} ${insert.settings}`).placeholders,
        changesSession: false,
      });
      return { format: rp.defaultFormat, data: new Uint8Array(0), summary: summarise(result, true) };
    } finally {
      await rm(path, { force: true });
    }
  }

  private textLimits(): BodyLimits {
    return { limit: this.limits.maxQueryBytes, catalog: this.engine.catalog };
  }
}

function summarise(r: EngineResult, isInsert: boolean): Summary {
  return {
    read_rows: r.rows,
    read_bytes: r.bytes,
    written_rows: isInsert ? r.rows : 0,
    written_bytes: isInsert ? r.bytes : 0,
    result_rows: isInsert ? 0 : r.rows,
    result_bytes: isInsert ? 0 : r.data.byteLength,
    elapsed_ns: r.elapsedNs,
  };
}
