import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './createLogger.js';
import { displayUrl, SecretRedactor } from './SecretRedactor.js';

const KEY = 'tt_ingest_AbCdEfGh12345678_s3cr3tS3cr3tS3cr3tS3cr3tS3cr3tS3cr3tS3cr3t1';
const WHSEC = 'whsec_dGhpcyBpcyBhIHNpZ25pbmcgc2VjcmV0IG9mIDMy+/=';

function capture(secrets: string[] = []): {
  logger: ReturnType<typeof createLogger>;
  lines: () => Array<Record<string, unknown>>;
  raw: () => string;
} {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const logger = createLogger({ level: 'debug', secrets, destination });
  const raw = (): string => chunks.join('');
  return {
    logger,
    raw,
    lines: () =>
      raw()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe('SecretRedactor', () => {
  const r = new SecretRedactor(['pa"ss\\word!', 'abc']);
  it('keeps a key kind and id, drops its secret', () => {
    expect(r.text(`bad key ${KEY}.`)).toBe('bad key tt_ingest_AbCdEfGh12345678_[redacted].');
  });
  it('drops webhook secrets, URL credentials and authorization values', () => {
    expect(r.text(`secret ${WHSEC} end`)).toBe('secret whsec_[redacted] end');
    expect(r.text('connect ECONNREFUSED http://default:hunter2@127.0.0.1:8123/?query=1')).toBe(
      'connect ECONNREFUSED http://[redacted]@127.0.0.1:8123/?query=1',
    );
    expect(r.text('Authorization: Basic ZGVmYXVsdDpodW50ZXIy')).toBe('Authorization: Basic [redacted]');
    expect(r.text('Authorization=Bearer%20abcdefgh12345678')).toBe('Authorization=Bearer%20[redacted]');
  });
  it('drops configured secrets by value, in text and inside JSON strings; very short ones are not searched', () => {
    expect(r.text('password pa"ss\\word! used')).toBe('password [redacted] used');
    expect(r.jsonLine(JSON.stringify({ msg: 'pa"ss\\word! here' }))).toBe('{"msg":"[redacted] here"}');
    expect(r.text('abc stays')).toBe('abc stays');
  });
  it('displays a URL without its credentials', () => {
    expect(displayUrl('http://u:p%40ss@ch:8123/db')).toBe('http://ch:8123/db');
    expect(displayUrl('http://ch:8123')).toBe('http://ch:8123');
  });
});

describe('createLogger', () => {
  it('writes JSON lines with msg and level', () => {
    const { logger, lines } = capture();
    logger.info({ url: 'http://127.0.0.1:1' }, 'telltale listening');
    expect(lines()).toEqual([
      expect.objectContaining({ msg: 'telltale listening', url: 'http://127.0.0.1:1', level: 30, service: 'telltale' }),
    ]);
  });

  it('never writes a secret: known fields, messages, error texts and nested values', () => {
    const password = 'ch-password-7f3a9';
    const { logger, lines, raw } = capture([password]);
    logger.info({ headers: { authorization: `Bearer ${KEY}` }, clickhousePassword: password, secret: WHSEC }, 'fields');
    logger.warn(
      { err: new Error(`request to http://telltale:${password}@ch:8123 failed, key ${KEY}`) },
      'storing spooled spans failed',
    );
    logger.error(`destination signed with ${WHSEC}`);
    logger.info({ nested: { deeper: { value: `x ${password} y` } } }, 'nested');
    const text = raw();
    for (const secret of [password, KEY, WHSEC, KEY.split('_')[3]!, WHSEC.slice(6)]) expect(text).not.toContain(secret);
    const [fields, failed] = lines();
    expect(fields).toMatchObject({
      headers: { authorization: '[redacted]' },
      clickhousePassword: '[redacted]',
      secret: '[redacted]',
    });
    expect((failed!.err as { message: string }).message).toBe(
      'request to http://[redacted]@ch:8123 failed, key tt_ingest_AbCdEfGh12345678_[redacted]',
    );
    expect(lines()).toHaveLength(4);
  });
});
