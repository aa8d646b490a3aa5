import { describe, expect, it } from 'vitest';
import { luhnValid, redactApiKeys, redactBearerTokens, redactCardNumbers, redactEmails } from './redactors.js';

describe('redactors', () => {
  it('removes provider keys and api_key pairs', () => {
    expect(redactApiKeys('key sk-ant-api03-abcdefghijklmnopqrstuv end')).toBe('key [REDACTED:api_key] end');
    expect(redactApiKeys('aws AKIAIOSFODNN7EXAMPLE.')).toBe('aws [REDACTED:api_key].');
    expect(redactApiKeys('gh ghp_abcdefghijklmnopqrstuvwxyz0123456789')).toBe('gh [REDACTED:api_key]');
    expect(redactApiKeys('GET /x?api-key=abc123def456&y=1')).toBe('GET /x?api-key=[REDACTED:api_key]&y=1');
    expect(redactApiKeys('{"apiKey": "zzzzzzzzzz"}')).toBe('{"apiKey": "[REDACTED:api_key]"}');
    expect(redactApiKeys('the task list is short')).toBe('the task list is short');
  });

  it('removes bearer tokens and e-mails', () => {
    expect(redactBearerTokens('Authorization: Bearer eyJhbGciOi.x.y')).toBe('Authorization: Bearer [REDACTED:token]');
    expect(redactEmails('write to a.b+c@mail.example.org now')).toBe('write to [REDACTED:email] now');
    expect(redactEmails('no at sign here')).toBe('no at sign here');
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
