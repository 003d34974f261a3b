import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

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
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(net, bits, 'ipv6');
}

/** True when the address is in a range a webhook may not reach (IPv4-mapped IPv6 addresses judged as IPv4). */
export function isBlockedAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1], 'ipv4');
  return BLOCKED.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

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
  if (blocked) return { reason: 'private', detail: `the host resolves to ${blocked}, a private, loopback or link-local address` };
  return null;
}
