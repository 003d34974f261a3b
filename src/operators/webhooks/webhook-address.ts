import { lookup as lookupEach } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP, LookupFunction } from 'node:net';

/** A range of addresses no webhook reaches (SSRF) unless allowed, and what IANA's registry calls it. */
interface Range {
  /** The range as a refusal names it (`10.0.0.0/8`). */
  cidr: string;
  what: string;
  first: bigint;
  mask: bigint;
}

function rangeOf(cidr: string, what: string, width: 32 | 128): Range {
  const [net, bits] = cidr.split('/');
  const all = (1n << BigInt(width)) - 1n;
  const mask = all ^ ((1n << BigInt(width - Number(bits))) - 1n);
  return { cidr, what, first: (width === 32 ? ipv4Number(net) : ipv6Number(net)) & mask, mask };
}

const inRange = (value: bigint, range: Range) => (value & range.mask) === range.first;

/**
 * The IPv4 ranges that are not globally reachable: IANA's IPv4 Special-Purpose Address Registry (RFC 6890 and after),
 * multicast and the reserved block. 192.0.0.0/24 is refused whole, its two globally reachable anycast addresses
 * (192.0.0.9, 192.0.0.10) with it: no webhook lives there. AS112 and AMT (192.31.196.0/24, 192.52.193.0/24,
 * 192.175.48.0/24) are globally reachable and pass.
 */
const IPV4_BLOCKED: Range[] = (
  [
    ['0.0.0.0/8', '"this network"'],
    ['10.0.0.0/8', 'private'],
    ['100.64.0.0/10', 'shared address space, carrier-grade NAT'],
    ['127.0.0.0/8', 'loopback'],
    ['169.254.0.0/16', 'link-local'],
    ['172.16.0.0/12', 'private'],
    ['192.0.0.0/24', 'IETF protocol assignments'],
    ['192.0.2.0/24', 'documentation, TEST-NET-1'],
    ['192.88.99.0/24', '6to4 relay anycast, deprecated'],
    ['192.168.0.0/16', 'private'],
    ['198.18.0.0/15', 'benchmarking'],
    ['198.51.100.0/24', 'documentation, TEST-NET-2'],
    ['203.0.113.0/24', 'documentation, TEST-NET-3'],
    ['224.0.0.0/4', 'multicast'],
    ['255.255.255.255/32', 'limited broadcast'],
    ['240.0.0.0/4', 'reserved'],
  ] as const
).map(([cidr, what]) => rangeOf(cidr, what, 32));

/**
 * The IPv6 ranges refused, from IANA's IPv6 Special-Purpose Address Registry and IPv6 Address Space, in this order (the
 * first that holds names the refusal). Beyond them only global unicast, 2000::/3, passes. The forms by which a
 * connection reaches an IPv4 host (IPv4-mapped, NAT64, 6to4) are judged by that IPv4 address first (blockedRange);
 * the IPv4-compatible (deprecated) and IPv4-translated forms are refused whole: nothing routes them to a public host.
 */
const IPV6_BLOCKED: Range[] = (
  [
    ['::/128', 'unspecified'],
    ['::1/128', 'loopback'],
    ['::/96', 'IPv4-compatible, deprecated'],
    ['::ffff:0:0:0/96', 'IPv4-translated'],
    ['64:ff9b:1::/48', 'local-use IPv4/IPv6 translation'],
    ['100::/64', 'discard-only'],
    ['2001::/23', 'IETF protocol assignments: Teredo, benchmarking, ORCHID…'],
    ['2001:db8::/32', 'documentation'],
    ['3fff::/20', 'documentation'],
    ['5f00::/16', 'segment routing SIDs'],
    ['fc00::/7', 'unique-local, private'],
    ['fe80::/10', 'link-local'],
    ['fec0::/10', 'site-local, deprecated'],
    ['ff00::/8', 'multicast'],
  ] as const
).map(([cidr, what]) => rangeOf(cidr, what, 128));

const GLOBAL_UNICAST = rangeOf('2000::/3', 'global unicast', 128);

function ipv4Number(address: string): bigint {
  return address.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}

function ipv6Number(address: string): bigint {
  return ipv6Groups(address).reduce((n, group) => (n << 16n) | BigInt(group), 0n);
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
 * The IPv4 address an IPv6 address carries: IPv4-compatible (`::/96`), IPv4-mapped (`::ffff:0:0/96`), IPv4-translated
 * (`::ffff:0:0:0/96`), NAT64 (`64:ff9b::/96`) and 6to4 (`2002::/16`, bits 16–47); null for any other address, and
 * for `::` and `::1` (IPv6's own unspecified and loopback addresses).
 */
export function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  const ipv4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const zeroes = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeroes(0, 5) && g[5] === 0xffff) return ipv4(g[6], g[7]);
  if (zeroes(0, 4) && g[4] === 0xffff && g[5] === 0) return ipv4(g[6], g[7]);
  if (zeroes(0, 6) && (g[6] !== 0 || g[7] > 1)) return ipv4(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeroes(2, 6)) return ipv4(g[6], g[7]);
  if (g[0] === 0x2002) return ipv4(g[1], g[2]);
  return null;
}

/** The IPv4 host an IPv6 address leads a connection to: IPv4-mapped, NAT64 and 6to4 (not `::/96` nor `::ffff:0:0:0/96`). */
function reachedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  const mapped = g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff;
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  return mapped || nat64 || g[0] === 0x2002 ? embeddedIpv4(address) : null;
}

/**
 * The blocked range an address lies in, as a refusal names it (`10.0.0.0/8 (private)`), or null for a public one. An
 * IPv6 address that leads to an IPv4 host (IPv4-mapped `::ffff:0:0/96`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) is
 * judged by that IPv4 address.
 */
export function blockedRange(address: string): string | null {
  const named = (range: Range | undefined) => (range ? `${range.cidr} (${range.what})` : null);
  if (isIP(address) !== 6) {
    const value = ipv4Number(address);
    return named(IPV4_BLOCKED.find((r) => inRange(value, r)));
  }
  const carried = reachedIpv4(address);
  if (carried !== null) return blockedRange(carried);
  const value = ipv6Number(address);
  const range = IPV6_BLOCKED.find((r) => inRange(value, r));
  if (range) return named(range);
  return inRange(value, GLOBAL_UNICAST) ? null : 'not in 2000::/3, the only global unicast IPv6 addresses';
}

/** True when the address is in a range a webhook may not reach (blockedRange). */
export function isBlockedAddress(address: string): boolean {
  return blockedRange(address) !== null;
}

/** A delivery's connection refused because its host resolved to a blocked address. */
export class AddressRefused extends Error {
  constructor(readonly address: string) {
    super(blockedDetail(address));
  }
}

function blockedDetail(address: string): string {
  const ipv4 = isIP(address) === 6 ? embeddedIpv4(address) : null;
  return `the host resolves to ${address}${ipv4 === null ? '' : ` (${ipv4})`}, in ${blockedRange(address)}, not a public address`;
}

/** The refusal of a DNS answer that holds any blocked address (the socket may try any of them), else undefined. */
export function refusedAnswer(addresses: { address: string }[]): AddressRefused | undefined {
  const blocked = addresses.find((a) => isBlockedAddress(a.address));
  return blocked ? new AddressRefused(blocked.address) : undefined;
}

/**
 * The `lookup` of a delivery's connection: resolves the host as Node would, and refuses the connection when any of its
 * addresses is blocked. The socket then reaches only addresses judged at that moment: a name that resolved to a public
 * address at the check and resolves to a private one a moment later (DNS rebinding) gets no connection.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  lookupEach(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const refused = refusedAnswer(addresses);
    if (refused) return callback(refused, '');
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
