import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REDACTORS,
  luhnValid,
  redactApiKeys,
  redactBearerTokens,
  redactCardNumbers,
  redactEmails,
  redactPrivateKeys,
} from './redactors.js';

/** Every built-in redactor in turn, as the SDK applies them. */
const redactAll = (text: string): string => DEFAULT_REDACTORS.reduce((t, r) => r(t), text);

describe('redactors', () => {
  it('removes provider keys and api_key pairs', () => {
    expect(redactApiKeys('key sk-ant-api03-abcdefghijklmnopqrstuv end')).toBe('key [REDACTED:api_key] end');
    expect(redactApiKeys('aws AKIAIOSFODNN7EXAMPLE.')).toBe('aws [REDACTED:api_key].');
    expect(redactApiKeys('gh ghp_abcdefghijklmnopqrstuvwxyz0123456789')).toBe('gh [REDACTED:api_key]');
    expect(redactApiKeys('GET /x?api-key=abc123def456&y=1')).toBe('GET /x?api-key=[REDACTED:api_key]&y=1');
    expect(redactApiKeys('{"apiKey": "zzzzzzzzzz"}')).toBe('{"apiKey": "[REDACTED:api_key]"}');
    expect(redactApiKeys('the task list is short')).toBe('the task list is short');
  });

  it('removes the published key formats of providers, code hosts, payments and chat', () => {
    // made-up keys of each format's length (not real credentials)
    const keys = [
      'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z',
      'sk_live_51HxYzAbCdEfGhIjKlMnOpQr',
      'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
      'rk_live_51HxYzAbCdEfGhIjKlMnOpQr',
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'gsk_8dKq2LmNpQrStUvWxYz0123456789abcdef',
      'xai-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
      'hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567',
      'r8_AbCdEfGhIjKlMnOpQrStUvWxYz012345678',
      'AIzaSyA-1234567890abcdefghijklmnopqrstu',
      'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz',
      'glpat-AbCdEfGhIjKlMnOpQrSt',
      'npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
      'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx',
      'tt_ingest_AbCdEfGh12_AbCdEfGhIjKlMnOpQrStUvWxYz012345',
    ];
    for (const key of keys) expect(redactApiKeys(`use ${key} here`), key).toBe('use [REDACTED:api_key] here');
  });

  it('leaves words that merely start like a key', () => {
    for (const text of ['pip install sk-learn', 'load hf_hub models', 'see npm_modules/', 'an xai-style answer'])
      expect(redactAll(text)).toBe(text);
  });

  it('removes bearer tokens and e-mails', () => {
    expect(redactBearerTokens('Authorization: Bearer eyJhbGciOi.x.y')).toBe('Authorization: Bearer [REDACTED:token]');
    expect(redactEmails('write to a.b+c@mail.example.org now')).toBe('write to [REDACTED:email] now');
    expect(redactEmails('no at sign here')).toBe('no at sign here');
  });

  it('removes JSON Web Tokens outside a header too', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
    expect(redactBearerTokens(`session=${jwt};`)).toBe('session=[REDACTED:token];');
  });

  it('removes private key blocks and passwords in URLs', () => {
    const pem = [
      '-----BEGIN RSA PRIVATE KEY-----',
      'MIIEowIBAAKCAQEA7',
      'bm9ub25l',
      '-----END RSA PRIVATE KEY-----',
    ].join('\n');
    expect(redactPrivateKeys(`key:\n${pem}\nthanks`)).toBe('key:\n[REDACTED:private_key]\nthanks');
    expect(redactPrivateKeys('-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----')).toContain('MIIB');
    expect(redactPrivateKeys('db postgres://app:s3cr%40t@db.internal:5432/x')).toBe(
      'db postgres://app:[REDACTED:password]@db.internal:5432/x',
    );
    expect(redactPrivateKeys('see https://example.com/a:b@c')).toBe('see https://example.com/a:b@c');
  });

  it('removes card numbers that pass the Luhn check only', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(redactCardNumbers('card 4111 1111 1111 1111 ok')).toBe('card [REDACTED:card] ok');
    expect(redactCardNumbers('card 5500-0000-0000-0004')).toBe('card [REDACTED:card]');
    expect(redactCardNumbers('order 4111111111111112 stays')).toBe('order 4111111111111112 stays');
    expect(redactCardNumbers('phone 12345')).toBe('phone 12345');
  });
});
