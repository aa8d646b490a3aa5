import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from './postWebhook.js';
import { checkUrl, rangeWords, refusalOf, STRICT_SSRF_POLICY, type Resolver } from './ssrfGuard.js';

const FORBIDDEN = [
  ['127.0.0.1', 'loopback'],
  ['127.1.2.3', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.16.5.4', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'linkLocal'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['100.127.255.254', 'carrierGradeNat'],
  ['0.0.0.0', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['224.0.0.1', 'multicast'],
  ['::1', 'loopback'],
  ['::', 'unspecified'],
  ['fc00::1', 'uniqueLocal'],
  ['fd12:3456::1', 'uniqueLocal'],
  ['fe80::1', 'linkLocal'],
  ['febf::1', 'linkLocal'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:169.254.169.254', 'linkLocal'],
  ['::ffff:10.0.0.1', 'private'],
  ['64:ff9b::a00:1', 'rfc6052'],
  ['2002:a00:1::', '6to4'],
] as const;

const fakeDns =
  (table: Record<string, string[]>): Resolver =>
  (host) => {
    const found = table[host];
    if (found === undefined) return Promise.reject(new Error('ENOTFOUND'));
    return Promise.resolve(found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };

describe('SSRF guard: address classification', () => {
  it.each(FORBIDDEN)('refuses %s (%s)', (address, range) => {
    expect(refusalOf(address, STRICT_SSRF_POLICY)).toContain(`${address} is ${rangeWords(range)}:`);
  });

  it('says each range in words, with its article', () => {
    expect(refusalOf('169.254.169.254', STRICT_SSRF_POLICY)).toMatch(/^169\.254\.169\.254 is a link-local address: /);
    expect(refusalOf('0.0.0.0', STRICT_SSRF_POLICY)).toMatch(/^0\.0\.0\.0 is an unspecified address: /);
    expect(refusalOf('100.64.0.1', STRICT_SSRF_POLICY)).toMatch(/is a carrier-grade NAT address: /);
  });

  it('lets public unicast addresses through', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(refusalOf(a, STRICT_SSRF_POLICY)).toBeUndefined();
  });

  it('allows a private range only when an operator names it', () => {
    const policy = { allowPrivate: ['127.0.0.0/8', 'fd00::/8'] };
    expect(refusalOf('127.0.0.1', policy)).toBeUndefined();
    expect(refusalOf('::ffff:127.0.0.1', policy)).toBeUndefined();
    expect(refusalOf('fd00::5', policy)).toBeUndefined();
    expect(refusalOf('10.0.0.1', policy)).toContain('private');
    expect(refusalOf('::1', policy)).toContain('loopback');
  });
});

describe('SSRF guard: URLs', () => {
  it.each([
    'http://127.0.0.1/hook',
    'http://[::1]:8080/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[fe80::1]/hook',
    'http://[fc00::1]/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1/',
    'http://0.0.0.0:4318/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://017700000001/',
  ])('refuses %s', async (url) => {
    await expect(checkUrl(url, STRICT_SSRF_POLICY, fakeDns({}))).rejects.toThrow(/address/);
  });

  it('refuses a DNS name that resolves to a private address (any of its addresses)', async () => {
    const dns = fakeDns({
      'internal.example.com': ['10.1.2.3'],
      'mixed.example.com': ['93.184.216.34', '192.168.0.10'],
    });
    await expect(checkUrl('https://internal.example.com/x', STRICT_SSRF_POLICY, dns)).rejects.toThrow(
      'internal.example.com resolves to 10.1.2.3, which is a private address',
    );
    await expect(checkUrl('https://mixed.example.com/x', STRICT_SSRF_POLICY, dns)).rejects.toThrow(/192\.168\.0\.10/);
    // the real resolver: localhost is loopback
    await expect(checkUrl('http://localhost:9/x', STRICT_SSRF_POLICY)).rejects.toThrow(/loopback/);
  });

  it('refuses other schemes, credentials and unresolvable names; passes a public name with its addresses', async () => {
    const dns = fakeDns({ 'hooks.example.com': ['93.184.216.34'] });
    await expect(checkUrl('file:///etc/passwd', STRICT_SSRF_POLICY, dns)).rejects.toThrow(/only http and https/);
    await expect(checkUrl('https://u:p@hooks.example.com/', STRICT_SSRF_POLICY, dns)).rejects.toThrow(/credentials/);
    await expect(checkUrl('https://nowhere.example.com/', STRICT_SSRF_POLICY, dns)).rejects.toThrow(/cannot resolve/);
    expect((await checkUrl('https://hooks.example.com/x', STRICT_SSRF_POLICY, dns)).addresses).toEqual([
      { address: '93.184.216.34', family: 4 },
    ]);
  });
});

describe('SSRF guard: sending', () => {
  let server: Server;
  let port = 0;
  const hits: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/redirect-private') res.writeHead(307, { location: 'http://10.0.0.1/steal' }).end();
      else if (req.url === '/redirect-metadata')
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
      else if (req.url === '/redirect-local') res.writeHead(308, { location: `http://127.0.0.1:${port}/final` }).end();
      else res.writeHead(204).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const opts = (allowPrivate: string[], resolve?: Resolver) => ({
    headers: {},
    timeoutMs: 2000,
    policy: { allowPrivate },
    ...(resolve === undefined ? {} : { resolve }),
  });

  it('does not connect to a refused address at all', async () => {
    hits.length = 0;
    const r = await postWebhook(`http://127.0.0.1:${port}/x`, '{}', opts([]));
    expect(r).toMatchObject({ kind: 'refused' });
    expect(hits).toEqual([]);
  });

  it('connects to the checked address, not to what a later lookup says', async () => {
    // the resolver answers once with the allowed loopback; http.request is never given the name to resolve again
    let lookups = 0;
    const resolve: Resolver = () =>
      Promise.resolve(++lookups === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.9.9.9', family: 4 }]);
    const r = await postWebhook(`http://receiver.test:${port}/ok`, '{}', opts(['127.0.0.0/8'], resolve));
    expect(r).toMatchObject({ kind: 'response', status: 204 });
    expect(lookups).toBe(1);
  });

  it('refuses a redirect to a private or link-local address, and follows an allowed one', async () => {
    expect(await postWebhook(`http://127.0.0.1:${port}/redirect-private`, '{}', opts(['127.0.0.0/8']))).toMatchObject({
      kind: 'refused',
      message: expect.stringMatching(/redirect refused: .*10\.0\.0\.1/),
    });
    expect(await postWebhook(`http://127.0.0.1:${port}/redirect-metadata`, '{}', opts(['127.0.0.0/8']))).toMatchObject({
      kind: 'refused',
      message: expect.stringMatching(/169\.254\.169\.254/),
    });
    hits.length = 0;
    expect(await postWebhook(`http://127.0.0.1:${port}/redirect-local`, '{}', opts(['127.0.0.0/8']))).toMatchObject({
      kind: 'response',
      status: 204,
    });
    expect(hits).toEqual(['/redirect-local', '/final']);
  });
});
