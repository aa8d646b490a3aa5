/**
 * The named text parts of a `multipart/form-data` body (how
 * `@clickhouse/client` sends `query` and `param_*` when they are too long
 * for the URL); undefined when the Content-Type is not multipart.
 */
export function parseMultipart(body: Buffer, contentType: string | undefined): Map<string, string> | undefined {
  const boundary = /^multipart\/form-data;.*\bboundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  if (boundary === null) return undefined;
  const delimiter = `--${boundary[1] ?? boundary[2]}`;
  const parts = new Map<string, string>();
  const text = body.toString('utf8');
  for (const chunk of text.split(delimiter).slice(1)) {
    if (chunk.startsWith('--')) break;
    const headerEnd = chunk.indexOf('\r\n\r\n');
    if (headerEnd < 0) continue;
    const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(chunk.slice(0, headerEnd))?.[1];
    if (name === undefined) continue;
    const value = chunk.slice(headerEnd + 4);
    parts.set(name, value.endsWith('\r\n') ? value.slice(0, -2) : value);
  }
  return parts;
}
