import { describe, expect, it } from 'vitest';
import {
  engineFamily,
  expectedReconnectMs,
  preflightCacheCapSeconds,
  preflightCacheDefaultSeconds,
  sameFamilyDelay,
} from '../src/engines.js';

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
