import { lookup as lookupEach } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP, LookupFunction } from 'node:net';

/** Private, loopback, link-local, shared, multicast and reserved ranges: no webhook reaches them (SSRF) unless allowed. */
const BLOCKED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  BLOCKED.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48], // NAT64 for local use only (RFC 8215)
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(net, bits, 'ipv6');
}

/** An IPv6 address's eight 16-bit groups (`::` expanded, a trailing dotted IPv4 part and a zone read). */
function ipv6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const [head, tail] = text.split('::');
  if (tail === undefined) return groups(head);
  const before = groups(head);
  const after = groups(tail);
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/**
 * The IPv4 address an IPv6 address carries, where it leads to that IPv4 host: IPv4-compatible (`::/96`), IPv4-mapped
 * (`::ffff:0:0/96`), NAT64 (`64:ff9b::/96`) and 6to4 (`2002::/16`, bits 16–47); null for any other address, and for
 * `::` and `::1` (IPv6's own unspecified and loopback addresses, blocked as such).
 */
export function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  const ipv4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const zeroes = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeroes(0, 5) && g[5] === 0xffff) return ipv4(g[6], g[7]);
  if (zeroes(0, 6) && (g[6] !== 0 || g[7] > 1)) return ipv4(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeroes(2, 6)) return ipv4(g[6], g[7]);
  if (g[0] === 0x2002) return ipv4(g[1], g[2]);
  return null;
}

/** True when the address is in a range a webhook may not reach; an IPv6 address carrying an IPv4 one is judged by that. */
export function isBlockedAddress(address: string): boolean {
  if (isIP(address) !== 6) return BLOCKED.check(address, 'ipv4');
  const ipv4 = embeddedIpv4(address);
  return ipv4 === null ? BLOCKED.check(address, 'ipv6') : BLOCKED.check(ipv4, 'ipv4');
}

/** A delivery's connection refused because its host resolved to a blocked address. */
export class AddressRefused extends Error {
  constructor(readonly address: string) {
    super(blockedDetail(address));
  }
}

function blockedDetail(address: string): string {
  const ipv4 = isIP(address) === 6 ? embeddedIpv4(address) : null;
  return `the host resolves to ${address}${ipv4 === null ? '' : ` (${ipv4})`}, a private, loopback or link-local address`;
}

/**
 * The `lookup` of a delivery's connection: resolves the host as Node would, and refuses the connection when any of its
 * addresses is blocked. The socket then reaches only addresses judged at that moment: a name that resolved to a public
 * address at the check and resolves to a private one a moment later (DNS rebinding) gets no connection.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  lookupEach(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const blocked = addresses.find((a) => isBlockedAddress(a.address));
    if (blocked) return callback(new AddressRefused(blocked.address), '');
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};

export type AddressProblem = { reason: 'scheme' | 'credentials' | 'unresolvable' | 'private'; detail: string };

/**
 * Checks a webhook URL: `https` (or `http` when allowed), no credentials in it, and — after DNS
 * resolution — no address in a blocked range unless private addresses are allowed. Answers the
 * problem, or null when the URL may be called.
 */
export async function addressProblem(raw: string, allow: { http: boolean; private: boolean }): Promise<AddressProblem | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { reason: 'scheme', detail: 'url must be an absolute https URL' };
  }
  if (url.protocol !== 'https:' && !(allow.http && url.protocol === 'http:')) {
    return { reason: 'scheme', detail: allow.http ? 'url must use https or http' : 'url must use https' };
  }
  if (url.username || url.password) return { reason: 'credentials', detail: 'url must not carry a user name or password' };
  if (allow.private) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return { reason: 'unresolvable', detail: `the host ${host} does not resolve` };
  }
  const blocked = addresses.find(isBlockedAddress);
  if (blocked) return { reason: 'private', detail: blockedDetail(blocked) };
  return null;
}
