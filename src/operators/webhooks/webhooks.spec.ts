import { backoffMs, MAX_ATTEMPTS, sign } from './webhook-signature';
import {
  AddressRefused,
  addressProblem,
  blockedRange,
  embeddedIpv4,
  guardedLookup,
  isBlockedAddress,
  refusedAnswer,
} from './webhook-address';

describe('webhook signatures (Standard Webhooks)', () => {
  it('matches the specification’s example', () => {
    expect(sign('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });
});

describe('webhook retries', () => {
  it('double per attempt within ±25 % jitter, capped at two hours, and span about a day', () => {
    for (let attempt = 1; attempt <= 5; attempt++) {
      const delay = backoffMs(10_000, attempt);
      expect(delay).toBeGreaterThanOrEqual(0.75 * 10_000 * 2 ** (attempt - 1));
      expect(delay).toBeLessThanOrEqual(1.25 * 10_000 * 2 ** (attempt - 1));
    }
    expect(backoffMs(10_000, 40)).toBeLessThanOrEqual(1.25 * 2 * 3600 * 1000);
    let nominal = 0;
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) nominal += Math.min(2 * 3600 * 1000, 10_000 * 2 ** (attempt - 1));
    expect(nominal / 3600_000).toBeGreaterThan(20);
    expect(nominal / 3600_000).toBeLessThan(30);
  });
});

describe('webhook addresses (SSRF)', () => {
  it('blocks private, loopback, link-local, shared and mapped addresses, and lets public ones through', () => {
    for (const a of [
      '10.0.0.1',
      '127.0.0.1',
      '169.254.169.254',
      '172.16.5.4',
      '192.168.1.1',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:10.0.0.1',
      '224.0.0.1',
    ]) {
      expect({ a, blocked: isBlockedAddress(a) }).toEqual({ a, blocked: true });
    }
    for (const a of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '172.32.0.1']) {
      expect({ a, blocked: isBlockedAddress(a) }).toEqual({ a, blocked: false });
    }
  });

  // IANA's IPv4 and IPv6 special-purpose address registries (and the ranges they defer to): every range that is not
  // globally reachable, each with an address inside it, its range as the refusal names it, and the address just
  // outside it where there is a public one (issue 43, item 10).
  const SPECIAL: [address: string, range: string, outside?: string][] = [
    ['0.0.0.0', '0.0.0.0/8 ("this network")', '1.0.0.1'],
    ['0.255.255.255', '0.0.0.0/8 ("this network")'],
    ['10.0.0.1', '10.0.0.0/8 (private)', '11.0.0.1'],
    ['10.255.255.255', '10.0.0.0/8 (private)'],
    ['100.64.0.1', '100.64.0.0/10 (shared address space, carrier-grade NAT)', '100.63.255.255'],
    ['100.127.255.255', '100.64.0.0/10 (shared address space, carrier-grade NAT)', '100.128.0.0'],
    ['127.0.0.1', '127.0.0.0/8 (loopback)', '128.0.0.1'],
    ['127.255.255.254', '127.0.0.0/8 (loopback)'],
    ['169.254.169.254', '169.254.0.0/16 (link-local)', '169.255.0.1'],
    ['172.16.5.4', '172.16.0.0/12 (private)', '172.32.0.1'],
    ['172.31.255.255', '172.16.0.0/12 (private)', '172.15.255.255'],
    ['192.0.0.8', '192.0.0.0/24 (IETF protocol assignments)', '192.0.1.1'],
    ['192.0.0.170', '192.0.0.0/24 (IETF protocol assignments)'],
    ['192.0.2.1', '192.0.2.0/24 (documentation, TEST-NET-1)', '192.0.3.1'],
    ['192.88.99.1', '192.88.99.0/24 (6to4 relay anycast, deprecated)', '192.88.98.1'],
    ['192.168.1.1', '192.168.0.0/16 (private)', '192.169.0.1'],
    ['198.18.0.1', '198.18.0.0/15 (benchmarking)', '198.17.255.255'],
    ['198.19.255.255', '198.18.0.0/15 (benchmarking)', '198.20.0.1'],
    ['198.51.100.7', '198.51.100.0/24 (documentation, TEST-NET-2)', '198.51.101.1'],
    ['203.0.113.5', '203.0.113.0/24 (documentation, TEST-NET-3)', '203.0.114.1'],
    ['224.0.0.1', '224.0.0.0/4 (multicast)', '223.255.255.255'],
    ['239.255.255.250', '224.0.0.0/4 (multicast)'],
    ['240.0.0.1', '240.0.0.0/4 (reserved)'],
    ['255.255.255.255', '255.255.255.255/32 (limited broadcast)'],
    ['::', '::/128 (unspecified)'],
    ['::1', '::1/128 (loopback)'],
    ['::2', '::/96 (IPv4-compatible, deprecated)'],
    ['::808:808', '::/96 (IPv4-compatible, deprecated)'],
    ['::ffff:0:7f00:1', '::ffff:0:0:0/96 (IPv4-translated)'],
    ['::ffff:0:808:808', '::ffff:0:0:0/96 (IPv4-translated)'],
    ['::ffff:7f00:1', '127.0.0.0/8 (loopback)', '::ffff:808:808'],
    ['::ffff:a9fe:a9fe', '169.254.0.0/16 (link-local)'],
    ['64:ff9b::a00:1', '10.0.0.0/8 (private)', '64:ff9b::808:808'],
    ['64:ff9b:1::808:808', '64:ff9b:1::/48 (local-use IPv4/IPv6 translation)'],
    ['100::1', '100::/64 (discard-only)'],
    ['100::ffff:ffff:ffff:ffff', '100::/64 (discard-only)'],
    ['2001::1', '2001::/23 (IETF protocol assignments: Teredo, benchmarking, ORCHID…)', '2001:200::1'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001::/23 (IETF protocol assignments: Teredo, benchmarking, ORCHID…)'],
    ['2001:2::1', '2001::/23 (IETF protocol assignments: Teredo, benchmarking, ORCHID…)'],
    ['2001:10::1', '2001::/23 (IETF protocol assignments: Teredo, benchmarking, ORCHID…)'],
    ['2001:1ff:ffff::1', '2001::/23 (IETF protocol assignments: Teredo, benchmarking, ORCHID…)'],
    ['2001:db8::1', '2001:db8::/32 (documentation)', '2001:db9::1'],
    ['2002:c0a8:101::1', '192.168.0.0/16 (private)', '2002:808:808::1'],
    ['2002:a00:1:ffff::1', '10.0.0.0/8 (private)'],
    ['2002::1', '0.0.0.0/8 ("this network")'],
    ['3fff::1', '3fff::/20 (documentation)', '3ffe:ffff::1'],
    ['3fff:fff:ffff::1', '3fff::/20 (documentation)', '3fff:1000::1'],
    ['5f00::1', '5f00::/16 (segment routing SIDs)'],
    ['fc00::1', 'fc00::/7 (unique-local, private)'],
    ['fd12:3456::1', 'fc00::/7 (unique-local, private)'],
    ['fe80::1', 'fe80::/10 (link-local)'],
    ['febf::1', 'fe80::/10 (link-local)'],
    ['fec0::1', 'fec0::/10 (site-local, deprecated)'],
    ['feff::1', 'fec0::/10 (site-local, deprecated)'],
    ['ff02::1', 'ff00::/8 (multicast)'],
    ['4000::1', 'not in 2000::/3, the only global unicast IPv6 addresses'],
    ['1::1', 'not in 2000::/3, the only global unicast IPv6 addresses'],
    ['e000::1', 'not in 2000::/3, the only global unicast IPv6 addresses'],
  ];

  it.each(SPECIAL.map(([address, range, outside]) => [address, range, outside ?? null] as const))(
    'refuses %s: %s',
    (address, range, outside) => {
      expect(blockedRange(address)).toBe(range);
      expect(isBlockedAddress(address)).toBe(true);
      if (outside !== null) expect({ outside, range: blockedRange(outside) }).toEqual({ outside, range: null });
    },
  );

  it('lets globally reachable addresses through, the special-purpose ones among them', () => {
    for (const a of [
      '1.1.1.1',
      '8.8.8.8',
      '93.184.215.14',
      // (192.0.0.9 and 192.0.0.10, anycast and globally reachable, are refused with the rest of 192.0.0.0/24.)
      '192.31.196.1', // AS112-v4
      '192.52.193.1', // AMT
      '192.175.48.1', // direct delegation AS112
      '223.255.255.255',
      '2606:4700:4700::1111',
      '2620:4f:8000::1', // direct delegation AS112
      '2a00:1450:4001:82b::200e',
      '::ffff:8.8.8.8',
      '64:ff9b::8.8.8.8',
      '2002:808:808::1',
    ]) {
      expect({ a, range: blockedRange(a) }).toEqual({ a, range: null });
    }
  });

  it('refuses a DNS answer holding any blocked address, whatever else it holds (at delivery: guardedLookup)', () => {
    const answer = (...addresses: string[]) => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    expect(refusedAnswer(answer('93.184.215.14', 'fec0::1'))?.message).toBe(
      'the host resolves to fec0::1, in fec0::/10 (site-local, deprecated), not a public address',
    );
    expect(refusedAnswer(answer('::ffff:0:7f00:1'))?.message).toBe(
      'the host resolves to ::ffff:0:7f00:1 (127.0.0.1), in ::ffff:0:0:0/96 (IPv4-translated), not a public address',
    );
    expect(refusedAnswer(answer('2606:4700:4700::1111', '1.1.1.1'))).toBeUndefined();
  });

  it('refuses other schemes, credentials and private literals unless allowed', async () => {
    const strict = { http: false, private: false };
    expect(await addressProblem('http://93.184.215.14/', strict)).toMatchObject({ reason: 'scheme' });
    expect(await addressProblem('ftp://93.184.215.14/', { http: true, private: true })).toMatchObject({ reason: 'scheme' });
    expect(await addressProblem('https://user:pw@93.184.215.14/', strict)).toMatchObject({ reason: 'credentials' });
    expect(await addressProblem('https://[::1]:8443/x', strict)).toMatchObject({ reason: 'private' });
    expect(await addressProblem('https://169.254.169.254/latest', strict)).toMatchObject({ reason: 'private' });
    expect(await addressProblem('https://93.184.215.14/hook', strict)).toBeNull();
    expect(await addressProblem('http://127.0.0.1:9/hook', { http: true, private: true })).toBeNull();
  });

  it('judges an IPv6 address carrying an IPv4 one (::/96, ::ffff:0:0/96, 64:ff9b::/96 NAT64, 2002::/16 6to4) by that IPv4 address', () => {
    expect(embeddedIpv4('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(embeddedIpv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(embeddedIpv4('::7f00:1')).toBe('127.0.0.1');
    expect(embeddedIpv4('::127.0.0.1')).toBe('127.0.0.1');
    expect(embeddedIpv4('64:ff9b::a00:1')).toBe('10.0.0.1');
    expect(embeddedIpv4('64:ff9b::192.168.0.1')).toBe('192.168.0.1');
    expect(embeddedIpv4('2002:c0a8:101::1')).toBe('192.168.1.1');
    expect(embeddedIpv4('2002:a9fe:a9fe:1:2:3:4:5')).toBe('169.254.169.254');
    expect(embeddedIpv4('::1')).toBeNull();
    expect(embeddedIpv4('::')).toBeNull();
    expect(embeddedIpv4('2606:4700:4700::1111')).toBeNull();
    expect(embeddedIpv4('64:ff9b:1::a00:1')).toBeNull();
    for (const a of [
      '::ffff:7f00:1',
      '::7f00:1',
      '::127.0.0.1',
      '::a9fe:a9fe',
      '64:ff9b::a00:1',
      '64:ff9b::7f00:1',
      '64:FF9B::A9FE:A9FE',
      '2002:c0a8:101::1',
      '2002:7f00:1::',
      '2002:a00:1:ffff::1',
      '::',
      '::1',
      '::2',
      '64:ff9b:1::a00:1',
    ]) {
      expect({ a, blocked: isBlockedAddress(a) }).toEqual({ a, blocked: true });
    }
    for (const a of ['64:ff9b::808:808', '64:ff9b::8.8.8.8', '2002:808:808::1', '::ffff:808:808', '2606:4700::7f00:1']) {
      expect({ a, blocked: isBlockedAddress(a) }).toEqual({ a, blocked: false });
    }
  });

  it('refuses literal IPv6 hosts carrying a private IPv4 address, and lets a public one through', async () => {
    const strict = { http: false, private: false };
    for (const url of [
      'https://[::ffff:127.0.0.1]/hook',
      'https://[::ffff:7f00:1]/hook',
      'https://[::127.0.0.1]/hook',
      'https://[64:ff9b::a00:1]/hook',
      'https://[2002:c0a8:0101::1]/hook',
    ]) {
      expect({ url, problem: await addressProblem(url, strict) }).toEqual({ url, problem: expect.objectContaining({ reason: 'private' }) });
    }
    expect(await addressProblem('https://[64:ff9b::a00:1]/hook', strict)).toEqual({
      reason: 'private',
      detail: 'the host resolves to 64:ff9b::a00:1 (10.0.0.1), in 10.0.0.0/8 (private), not a public address',
    });
    expect(await addressProblem('https://[64:ff9b::808:808]/hook', strict)).toBeNull();
  });

  it('refuses a delivery’s connection when the host resolves to a blocked address as it connects (DNS rebinding)', async () => {
    const resolved = (options: { all?: boolean }) =>
      new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
        guardedLookup('localhost', { family: 0, ...options }, (error, address) => resolve({ error, address })),
      );
    for (const all of [false, true]) {
      const { error } = await resolved({ all });
      expect(error).toBeInstanceOf(AddressRefused);
      expect(error?.message).toMatch(
        /^the host resolves to (127\.0\.0\.1, in 127\.0\.0\.0\/8|::1, in ::1\/128) \(loopback\), not a public address$/,
      );
    }
  });
});
