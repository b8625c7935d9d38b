import { describe, expect, it } from 'vitest';
import {
  blocksAsLocalNetwork,
  engineFamily,
  isLocalAddress,
  expectedReconnectMs,
  preflightCacheCapSeconds,
  preflightCacheDefaultSeconds,
  sameFamilyDelay,
} from '../src/rules/engine-facts.js';

describe('engine families', () => {
  it('tells the families apart by user agent', () => {
    expect(
      engineFamily(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
      ),
    ).toBe('chromium');
    expect(engineFamily('Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0')).toBe('firefox');
    expect(
      engineFamily('Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18 Safari/605.1.15'),
    ).toBe('webkit');
  });

  it('knows the reconnect delays and preflight cache caps the spec names', () => {
    expect(expectedReconnectMs('chromium')).toBe(3_000);
    expect(expectedReconnectMs('firefox')).toBe(5_000);
    expect(preflightCacheCapSeconds('chromium')).toBe(7_200);
    expect(preflightCacheCapSeconds('firefox')).toBe(86_400);
  });

  it('knows what was measured in WebKit (GTK) 2.50: 3 s to reconnect, a 600 s cap, 5 s without Max-Age', () => {
    expect(expectedReconnectMs('webkit')).toBe(3_000);
    expect(preflightCacheCapSeconds('webkit')).toBe(600);
    expect(preflightCacheDefaultSeconds('webkit')).toBe(5);
  });

  it('checks a measured delay only coarsely, enough to tell 3 s from 5 s', () => {
    expect(sameFamilyDelay(3_050, 3_000)).toBe(true);
    expect(sameFamilyDelay(5_020, 5_000)).toBe(true);
    expect(sameFamilyDelay(500, 3_000)).toBe(false);
    expect(sameFamilyDelay(9_000, 5_000)).toBe(false);
    expect(sameFamilyDelay(3_000, 5_000)).toBe(false);
    expect(sameFamilyDelay(5_000, 3_000)).toBe(false);
  });
});

describe("Chromium's Local Network Access", () => {
  it('counts loopback and private addresses as local, any other as public', () => {
    for (const local of ['127.0.0.1', '127.8.9.10', '::1', '[::1]', '10.1.2.3', '172.16.0.1', '172.31.255.255'])
      expect(isLocalAddress(local), local).toBe(true);
    for (const local of ['192.168.1.10', '169.254.1.1', 'fd12:3456::1', 'fe80::1', '::ffff:127.0.0.1'])
      expect(isLocalAddress(local), local).toBe(true);
    for (const remote of ['8.8.8.8', '172.32.0.1', '172.15.0.1', '192.169.0.1', '2001:db8::1', '11.0.0.1'])
      expect(isLocalAddress(remote), remote).toBe(false);
  });

  it('stops a public page reaching a local address: a plain http one always, an https one unless allowed', () => {
    expect(blocksAsLocalNetwork('chromium', 'http://attacker.test', true, true)).toBe(true);
    expect(blocksAsLocalNetwork('chromium', 'https://attacker.test', true, true)).toBe(false);
    expect(blocksAsLocalNetwork('chromium', 'https://attacker.test', true, false)).toBe(true);
    // Not public (a loopback name), or not a local target: nothing to ask.
    expect(blocksAsLocalNetwork('chromium', 'http://evil.localhost:5173', true, false)).toBe(false);
    expect(blocksAsLocalNetwork('chromium', 'http://attacker.test', false, false)).toBe(false);
    expect(blocksAsLocalNetwork('firefox', 'http://attacker.test', true, false)).toBe(false);
  });
});
