import { randomUUID } from 'node:crypto';
import type { ErrorCatalog } from './ErrorCatalog.js';

/** A query request's URL parameters, sorted by what the server does with them. */
export interface RequestParams {
  /** The `query` parameter (the body holds the query, or the INSERT data, when it is given). */
  query: string | undefined;
  /** `param_<name>` values, as sent: ClickHouse's escaped text form of each value. */
  params: Map<string, string>;
  /** Real query settings: applied to this query only. */
  settings: Map<string, string>;
  database: string | undefined;
  queryId: string;
  /** The output format of a query without a FORMAT clause. */
  defaultFormat: string;
  /** `enable_http_compression=1`: compress the response if the client accepts it. */
  compress: boolean;
}

/**
 * Parameters that steer the HTTP exchange rather than the query (this server
 * buffers every result, so the progress and buffering ones have nothing to
 * do), plus `readonly`: a session-wide readonly would lock this server's one
 * chDB session for good.
 */
const TRANSPORT = new Set([
  'query',
  'query_id',
  'database',
  'default_format',
  'enable_http_compression',
  'session_id',
  'session_timeout',
  'session_check',
  'user',
  'password',
  'quota_key',
  'role',
  'compress',
  'stacktrace',
  'buffer_size',
  'wait_end_of_query',
  'http_wait_end_of_query',
  'send_progress_in_http_headers',
  'http_headers_progress_interval_ms',
  'http_response_buffer_size',
  'http_zlib_compression_level',
  'http_native_compression_disable_checksumming_on_decompress',
  'http_write_exception_in_output_format',
  'add_http_cors_header',
  'cancel_http_readonly_queries_on_client_close',
  'client_protocol_version',
  'readonly',
]);

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function readRequestParams(search: URLSearchParams, catalog: ErrorCatalog): RequestParams {
  const out: RequestParams = {
    query: search.get('query') ?? undefined,
    params: new Map(),
    settings: new Map(),
    database: search.get('database') ?? undefined,
    queryId: search.get('query_id') || randomUUID(),
    defaultFormat: search.get('default_format') || 'TabSeparated',
    compress: search.get('enable_http_compression') === '1',
  };
  if (search.get('decompress') === '1')
    throw catalog.error(
      'NOT_IMPLEMENTED',
      'ClickHouse-compressed request bodies (decompress=1) are not supported by this test server',
    );
  for (const [key, value] of search) {
    if (key.startsWith('param_')) {
      addQueryParam(out, key.slice('param_'.length), value, catalog);
    } else if (!TRANSPORT.has(key)) {
      if (!NAME.test(key)) throw catalog.error('UNKNOWN_SETTING', `Unknown setting '${key}'`);
      out.settings.set(key, value);
    }
  }
  return out;
}

/** Adds a `param_<name>` value (from the URL or a multipart body part). */
export function addQueryParam(rp: RequestParams, name: string, value: string, catalog: ErrorCatalog): void {
  if (!NAME.test(name)) throw catalog.error('BAD_ARGUMENTS', `Invalid query parameter name: ${name}`);
  rp.params.set(name, value);
}
