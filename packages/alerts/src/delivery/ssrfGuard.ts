import { lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';

/**
 * Server-side request forgery guard for webhook destinations. A destination
 * may only reach public unicast addresses: loopback, private (RFC 1918),
 * link-local (169.254.0.0/16, fe80::/10, cloud metadata included), CGNAT
 * (100.64.0.0/10), unspecified (0.0.0.0, ::), multicast, broadcast,
 * reserved and documentation ranges, IPv6 unique-local (fc00::/7), and IPv6
 * forms that embed an IPv4 address (IPv4-mapped ::ffff:a.b.c.d is judged as
 * the IPv4 address; NAT64, 6to4 and Teredo are refused) — unless an operator
 * allows a range explicitly (`allowPrivate`, CIDRs: on-prem receivers, tests).
 */
export interface SsrfPolicy {
  /** CIDR ranges an operator allows although they are not public, e.g. `127.0.0.0/8`, `10.1.0.0/16`, `::1/128`. */
  allowPrivate: readonly string[];
}

export const STRICT_SSRF_POLICY: SsrfPolicy = { allowPrivate: [] };

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address (injectable for tests). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
      if (err !== null) reject(err);
      else resolve(addresses.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 })));
    });
  });

/** Thrown when a URL or an address it resolves to is not allowed (BAD_REQUEST: the destination must change). */
export class SsrfError extends TelltaleError {
  override readonly name: string = 'SsrfError';
  constructor(message: string) {
    super({ code: TelltaleErrorCode.BAD_REQUEST, message });
  }
}

/** The ipaddr.js range of an address, IPv4-mapped IPv6 judged as IPv4; `invalid` when it does not parse. */
export function addressRange(address: string): string {
  if (!ipaddr.isValid(address)) return 'invalid';
  return ipaddr.process(address).range();
}

/** Why an address is refused, or undefined when it may be reached. */
export function refusalOf(address: string, policy: SsrfPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.process(address);
  for (const cidr of policy.allowPrivate) {
    const [net, bits] = ipaddr.parseCIDR(cidr);
    if (net.kind() === parsed.kind() && parsed.match(net, bits)) return undefined;
  }
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  return `${address} is ${rangeWords(range)}: webhooks may only reach public addresses (an operator can allow a range with --alerts-allow-private)`;
}

/** An ipaddr.js range in words: `linkLocal` → "a link-local address". */
export function rangeWords(range: string): string {
  const words = RANGE_WORDS[range] ?? range.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
  return `${/^[aeiou]/.test(words) ? 'an' : 'a'} ${words} address`;
}

const RANGE_WORDS: Readonly<Record<string, string>> = {
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade NAT',
  uniqueLocal: 'unique local',
  rfc6052: 'IPv4-translated (RFC 6052)',
  '6to4': '6to4',
  ipv4Mapped: 'IPv4-mapped',
  teredo: 'Teredo',
};

/** Validates CIDRs of a policy (the server's startup option). */
export function checkPolicy(policy: SsrfPolicy): void {
  for (const cidr of policy.allowPrivate) {
    if (!ipaddr.isValidCIDR(cidr))
      throw new TelltaleError({ code: TelltaleErrorCode.INVALID_CONFIG, message: `not a CIDR range: ${cidr}` });
  }
}

/** A URL checked for sending: the parsed URL and the addresses to connect to (every one allowed). */
export interface CheckedUrl {
  url: URL;
  addresses: ResolvedAddress[];
}

/**
 * Checks a destination URL: http(s), no credentials, and a host that is (or
 * resolves only to) allowed addresses. The caller connects to exactly the
 * returned addresses (see pinnedLookup), so a DNS answer that changes
 * between check and connect cannot slip a private address in.
 */
export async function checkUrl(
  raw: string | URL,
  policy: SsrfPolicy,
  resolve: Resolver = systemResolver,
): Promise<CheckedUrl> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SsrfError(`not a URL: ${String(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new SsrfError(`only http and https URLs are allowed, not ${url.protocol}`);
  if (url.username !== '' || url.password !== '') throw new SsrfError('a destination URL may not carry credentials');
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: ResolvedAddress[];
  if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await resolve(host);
    } catch (err) {
      throw new SsrfError(`cannot resolve ${host}: ${(err as Error).message}`);
    }
    if (addresses.length === 0) throw new SsrfError(`${host} resolves to no address`);
  }
  for (const a of addresses) {
    const refusal = refusalOf(a.address, policy);
    if (refusal !== undefined)
      throw new SsrfError(
        host === a.address ? refusal : `${host} resolves to ${a.address}, which ${refusal.slice(a.address.length + 1)}`,
      );
  }
  return { url, addresses };
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

/** A `lookup` for http.request that answers only with the checked addresses. */
export function pinnedLookup(
  addresses: readonly ResolvedAddress[],
): (hostname: string, options: { all?: boolean }, callback: LookupCallback) => void {
  return (_hostname, options, callback) => {
    const first = addresses[0];
    if (first === undefined) callback(new Error('no checked address'), '', 4);
    else if (options.all === true)
      callback(
        null,
        addresses.map((a) => ({ address: a.address, family: a.family })),
      );
    else callback(null, first.address, first.family);
  };
}
