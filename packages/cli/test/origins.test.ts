import { describe, expect, it } from 'vitest';
import { readCheckOptions } from '../src/check/check-options.js';
import { costOf, HOSTILE_KINDS, hostileOrigins } from '../src/check/origins.js';

// The attacker origins made from yours, class by class, written by hand from what each class
// stands for (docs/check.md); which of them an engine can be is the engine tests' business.

const originsOf = (yours: string, kind: (typeof HOSTILE_KINDS)[number]) =>
  hostileOrigins(yours, [kind]).map((tried) => (tried.context === 'page' ? tried.origin : `null ${tried.context}`));

describe('check: the attacker origins of each class', () => {
  it('from https://app.example.com', () => {
    const yours = 'https://app.example.com';
    expect(originsOf(yours, 'arbitrary')).toEqual(['https://attacker.test']);
    expect(originsOf(yours, 'null')).toEqual(['null sandboxed-frame', 'null data-worker']);
    expect(originsOf(yours, 'prefix')).toEqual(['https://app.example.com.attacker.test']);
    expect(originsOf(yours, 'suffix')).toEqual(['https://evilapp.example.com']);
    expect(originsOf(yours, 'substring')).toEqual(['https://app.example.co']);
    expect(originsOf(yours, 'unescaped-dot')).toEqual(['https://appxexample.com']);
    expect(originsOf(yours, 'subdomain')).toEqual(['https://evil.example.com']);
    expect(originsOf(yours, 'http-twin')).toEqual(['http://app.example.com']);
    expect(originsOf(yours, 'http-subdomain')).toEqual(['http://evil.example.com']);
    expect(originsOf(yours, 'third-party')).toEqual([
      'https://attacker.github.io',
      'https://attacker.vercel.app',
      'https://attacker.netlify.app',
      'https://attacker.herokuapp.com',
      'https://attacker.s3.amazonaws.com',
      'https://attacker.azurewebsites.net',
      'https://codepen.io',
      'https://jsfiddle.net',
    ]);
    expect(originsOf(yours, 'localhost-edge')).toEqual([
      'https://localhost.attacker.test',
      'https://127.0.0.1.attacker.test',
    ]);
    expect(originsOf(yours, 'dev-server')).toEqual([
      'http://localhost:3000',
      'http://localhost:5173',
      'http://localhost:8080',
      'http://127.0.0.1:3000',
      'http://127.0.0.1:5173',
      'http://127.0.0.1:8080',
    ]);
    expect(originsOf(yours, 'trailing-dot')).toEqual(['https://app.example.com.']);
    expect(originsOf(yours, 'other-port')).toEqual(['https://app.example.com:8443']);
    // Only an http:// origin has a scheme above it.
    expect(originsOf(yours, 'other-scheme')).toEqual([]);
    // "example" with a Cyrillic е (U+0435), as the engines send it: punycode.
    expect(originsOf(yours, 'lookalike')).toEqual(['https://app.xn--xample-2of.com']);
    expect(originsOf(yours, 'special-characters')).toHaveLength(18);
  });

  it('from http://localhost:5173: your own dev server is not an attacker, https is the other scheme, the next port another', () => {
    const yours = 'http://localhost:5173';
    expect(originsOf(yours, 'dev-server')).not.toContain(yours);
    expect(originsOf(yours, 'dev-server')).toHaveLength(5);
    expect(originsOf(yours, 'other-scheme')).toEqual(['https://localhost:5173']);
    expect(originsOf(yours, 'other-port')).toEqual(['http://localhost:5174']);
    expect(originsOf(yours, 'http-twin')).toEqual([]);
  });

  it('from an IP address: no names are made from it (no trailing dot, no lookalike)', () => {
    expect(originsOf('http://127.0.0.1:8080', 'trailing-dot')).toEqual([]);
    expect(originsOf('http://127.0.0.1:8080', 'lookalike')).toEqual([]);
  });

  it('each origin once, and --also-hostile origins after the classes, graded as any site', () => {
    const tried = hostileOrigins('http://app.example.com', ['arbitrary', 'arbitrary'], ['http://staging.example.com']);
    expect(tried.map((origin) => [origin.origin, origin.kind])).toEqual([
      ['http://attacker.test', 'arbitrary'],
      ['http://staging.example.com', 'listed'],
    ]);
    expect(costOf('listed')).toBe('any-site');
  });

  it('--quick: the classes most often found (reflecting, null, prefix, suffix, subdomain, the http twin), one or two origins each', () => {
    // What a check with --quick tries (its finding against origin: true: check-mcp.test.ts's run).
    const yours = 'http://app.example.test';
    const { hostile } = readCheckOptions(['http://127.0.0.1:8080/me', '--from', yours, '--quick']);
    expect(hostile).toEqual(['arbitrary', 'null', 'prefix', 'suffix', 'subdomain', 'http-twin']);
    const tried = hostileOrigins(yours, hostile);
    // From an http origin there is no http twin: yours is one already.
    expect(
      tried.map((origin) => `${origin.kind} ${origin.context === 'page' ? origin.origin : origin.context}`),
    ).toEqual([
      'arbitrary http://attacker.test',
      'null sandboxed-frame',
      'null data-worker',
      'prefix http://app.example.test.attacker.test',
      'suffix http://evilapp.example.test',
      'subdomain http://evil.example.test',
    ]);
    expect(hostileOrigins('https://app.example.test', hostile).map((origin) => origin.origin)).toContain(
      'http://app.example.test',
    );
  });

  it('what being one costs: any site, a position, or your own host', () => {
    const byCost = (cost: string) => HOSTILE_KINDS.filter((kind) => costOf(kind) === cost);
    expect(byCost('position')).toEqual(['subdomain', 'http-twin', 'http-subdomain', 'dev-server', 'other-port']);
    expect(byCost('own-host')).toEqual(['trailing-dot', 'other-scheme']);
    expect(byCost('any-site')).toHaveLength(HOSTILE_KINDS.length - 7);
  });
});
