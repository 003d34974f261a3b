import { backoffMs, MAX_ATTEMPTS, sign } from './webhook-signature';
import { AddressRefused, addressProblem, embeddedIpv4, guardedLookup, isBlockedAddress } from './webhook-address';

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
    for (const a of ['64:ff9b::808:808', '64:ff9b::8.8.8.8', '2002:808:808::1', '::ffff:808:808', '2001:db8::7f00:1']) {
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
      detail: 'the host resolves to 64:ff9b::a00:1 (10.0.0.1), a private, loopback or link-local address',
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
      expect(error?.message).toMatch(/^the host resolves to (127\.0\.0\.1|::1), a private, loopback or link-local address$/);
    }
  });
});
