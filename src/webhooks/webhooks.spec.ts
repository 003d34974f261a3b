import { backoffMs, MAX_ATTEMPTS, sign } from './webhook-signature';
import { addressProblem, isBlockedAddress } from './webhook-address';

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
});
