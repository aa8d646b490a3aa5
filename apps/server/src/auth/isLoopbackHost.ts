import { isIPv4, isIPv6 } from 'node:net';

/**
 * Whether binding `host` listens on the loopback interface only: `localhost`,
 * 127.0.0.0/8, ::1 (any spelling) and IPv4-mapped ::ffff:127.x.x.x.
 * Everything else — 0.0.0.0, ::, a LAN address, another host name — may be
 * reachable from other machines.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost') return true;
  if (isIPv4(h)) return h.startsWith('127.');
  if (!isIPv6(h)) return false;
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (dotted !== null)
    return expandIPv6(`${dotted[1]}0:0`).startsWith('0000:0000:0000:0000:0000:ffff:') && dotted[2]!.startsWith('127.');
  return expandIPv6(h) === '0000:0000:0000:0000:0000:0000:0000:0001';
}

/** Eight groups of four hex digits. */
function expandIPv6(ip: string): string {
  const [head = '', tail] = ip.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0');
  return [...left, ...zeros, ...right].map((part) => part.padStart(4, '0')).join(':');
}
