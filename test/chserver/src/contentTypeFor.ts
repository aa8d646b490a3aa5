const BINARY = new Set([
  'native',
  'rowbinary',
  'rowbinarywithnames',
  'rowbinarywithnamesandtypes',
  'rowbinarywithdefaults',
  'arrow',
  'arrowstream',
  'parquet',
  'orc',
  'avro',
  'msgpack',
  'protobuf',
  'protobufsingle',
  'capnproto',
  'npy',
  'bsoneachrow',
]);

/** The Content-Type for output in this format (close to a ClickHouse server's; the client does not read it). */
export function contentTypeFor(format: string): string {
  const f = format.toLowerCase();
  if (f.startsWith('json')) return 'application/json; charset=UTF-8';
  if (f.startsWith('tabseparated') || f.startsWith('tsv')) return 'text/tab-separated-values; charset=UTF-8';
  if (f.startsWith('csv')) return 'text/csv; charset=UTF-8; header=absent';
  if (f === 'xml') return 'application/xml; charset=UTF-8';
  if (BINARY.has(f)) return 'application/octet-stream';
  return 'text/plain; charset=UTF-8';
}
