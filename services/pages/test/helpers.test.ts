import { describe, expect, it } from 'vitest';
import { otherOrigin, originRole } from '../web/ts/frame/site.js';
import {
  engineFamily,
  expectedReconnectMs,
  preflightCacheCapSeconds,
  preflightCacheDefaultSeconds,
  sameFamilyDelay,
} from '../web/ts/rules/engine.js';
import {
  hasCorsUnsafeByte,
  isSafelistedRequestHeader,
  isSafelistedResponseHeader,
  needsPreflight,
} from '../web/ts/rules/cors-rules.js';
import { base64Length, sampleFileBytes, toBase64 } from '../web/ts/rules/encodings.js';
import { computeJsonTable, stringifyOutcome } from '../web/ts/rules/json-cases.js';
import { describeEntries } from '../web/ts/rules/form-entries.js';
import { ExitBeacon } from '../web/ts/probes/exit-beacon.js';
import { StreamRecorder } from '../web/ts/probes/stream-recorder.js';

const PAIRS: [string, string][] = [
  ['localhost', '127.0.0.1'],
  ['a.localhost', 'b.localhost'],
];

describe('the other origin', () => {
  it.each([
    ['http://localhost:8080', 'http://127.0.0.1:8080'],
    ['http://127.0.0.1:8080', 'http://localhost:8080'],
    ['https://a.localhost', 'https://b.localhost'],
    ['https://b.localhost:8443', 'https://a.localhost:8443'],
  ])('%s pairs with %s, keeping scheme and port', (self, other) => {
    expect(otherOrigin(self, PAIRS)).toBe(other);
  });

  it('is null for a host in no pair', () => {
    expect(otherOrigin('http://example.test', PAIRS)).toBeNull();
  });

  it('labels URLs by role', () => {
    const site = { self: 'http://localhost:8080', other: 'http://127.0.0.1:8080' };
    expect(originRole('/api/posts', site)).toBe('this origin');
    expect(originRole('http://127.0.0.1:8080/api/posts', site)).toBe('other origin');
    expect(originRole('http://127.0.0.1:1/', site)).toBe('elsewhere');
  });
});

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

describe('CORS rules', () => {
  it('lists the seven safelisted response headers', () => {
    for (const name of [
      'Cache-Control',
      'Content-Language',
      'Content-Length',
      'Content-Type',
      'Expires',
      'Last-Modified',
      'Pragma',
    ])
      expect(isSafelistedResponseHeader(name)).toBe(true);
    expect(isSafelistedResponseHeader('X-Cache')).toBe(false);
    expect(isSafelistedResponseHeader('Vary')).toBe(false);
  });

  it('finds CORS-unsafe bytes', () => {
    expect(hasCorsUnsafeByte('text/plain')).toBe(false);
    expect(hasCorsUnsafeByte('a\tb')).toBe(false);
    for (const ch of ['"', '(', ')', ':', '<', '>', '?', '@', '[', '\\', ']', '{', '}', '\x7f', '\x01'])
      expect(hasCorsUnsafeByte(`a${ch}b`), ch).toBe(true);
  });

  it('applies the safelisted request header table', () => {
    expect(isSafelistedRequestHeader('Content-Type', 'text/plain; charset=utf-8')).toBe(true);
    expect(isSafelistedRequestHeader('Content-Type', 'application/json')).toBe(false);
    expect(isSafelistedRequestHeader('Content-Type', 'text/plain; charset="utf-8"')).toBe(false);
    expect(isSafelistedRequestHeader('Content-Language', 'a'.repeat(128))).toBe(true);
    expect(isSafelistedRequestHeader('Content-Language', 'a'.repeat(129))).toBe(false);
    expect(isSafelistedRequestHeader('Accept-Language', 'en (GB)')).toBe(false);
    expect(isSafelistedRequestHeader('Range', 'bytes=0-99')).toBe(true);
    expect(isSafelistedRequestHeader('Range', 'bytes=-99')).toBe(false);
    expect(isSafelistedRequestHeader('X-Requested-With', 'x')).toBe(false);
  });

  it('predicts preflights', () => {
    expect(needsPreflight('GET', [])).toBe(false);
    expect(needsPreflight('POST', [['Content-Type', 'text/plain']])).toBe(false);
    expect(needsPreflight('PUT', [])).toBe(true);
    expect(needsPreflight('POST', [['Content-Type', 'application/json']])).toBe(true);
    expect(needsPreflight('POST', [], true)).toBe(true);
    const nine = Array.from({ length: 9 }, (): [string, string] => ['Accept-Language', 'a'.repeat(120)]);
    expect(needsPreflight('POST', nine)).toBe(true);
    expect(needsPreflight('POST', nine.slice(0, 8))).toBe(false);
  });
});

describe('encodings', () => {
  it('sizes base64 at four characters per three bytes', () => {
    expect(base64Length(0)).toBe(0);
    expect(base64Length(1)).toBe(4);
    expect(base64Length(3_000)).toBe(4_000);
    expect(toBase64(sampleFileBytes(3_000))).toHaveLength(4_000);
  });
});

describe('JSON.stringify cases', () => {
  it('match the spec in this engine too', () => {
    for (const row of computeJsonTable()) expect(row.agrees, row.label).toBe(true);
  });

  it('report undefined as not a string', () => {
    expect(stringifyOutcome(() => undefined)).toBe('undefined (not a string)');
  });
});

describe('form entries', () => {
  it('describe strings and files', () => {
    const form = new FormData();
    form.append('a', '1');
    form.append('f', new File([], '', { type: 'application/octet-stream' }));
    expect(describeEntries(form.entries() as Iterable<[string, string | File]>)).toEqual([
      ['a', '1'],
      ['f', 'File(name="", size=0, type="application/octet-stream")'],
    ]);
  });
});

describe('the exit beacon', () => {
  it('sends only when dirty, three numbers, and stays dirty when refused', () => {
    const sent: string[] = [];
    let accept = true;
    const beacon = new ExitBeacon((body) => {
      sent.push(body);
      return accept;
    });
    expect(beacon.flush('pagehide')).toBeNull();
    beacon.click();
    beacon.key();
    beacon.setVisibleSeconds(7);
    expect(beacon.flush('visibilitychange:hidden')).toBe(true);
    expect(JSON.parse(sent[0]!)).toEqual({ clicks: 1, keys: 1, visibleSeconds: 7 });
    expect(beacon.flush('pagehide')).toBeNull();
    beacon.click();
    accept = false;
    expect(beacon.flush('pagehide')).toBe(false);
    expect(beacon.isDirty).toBe(true);
    expect(sent).toHaveLength(2);
  });
});

describe('the stream recorder', () => {
  it('closes on done when asked to', () => {
    const recorder = new StreamRecorder({ closeOnDone: true, maxRestarts: 2 });
    recorder.open(0);
    recorder.tick(1, 2);
    recorder.tick(2, 2);
    expect(recorder.done()).toBe('close');
    expect(recorder.runs).toEqual([[1, 2]]);
  });

  it('counts restarts at n=1, measures reconnects, and stops after two restarts', () => {
    const recorder = new StreamRecorder({ closeOnDone: false, maxRestarts: 2 });
    let now = 0;
    const run = () => {
      recorder.tick(1, 2);
      recorder.tick(2, 2);
      expect(recorder.done()).toBe('continue');
    };
    recorder.open(now);
    run();
    expect(recorder.error(0, (now = 2_000))).toBe('continue');
    recorder.open((now += 3_000));
    run();
    expect(recorder.error(0, (now += 2_000))).toBe('continue');
    recorder.open((now += 3_100));
    run();
    expect(recorder.error(0, (now += 2_000))).toBe('close');
    expect(recorder.runs).toEqual([
      [1, 2],
      [1, 2],
      [1, 2],
    ]);
    expect(recorder.restarts).toBe(2);
    expect(recorder.reconnectDelaysMs).toEqual([3_000, 3_100]);
    expect(recorder.closedBecause).toBe('2 restarts');
  });

  it('treats an error in state closed as the end, with no decision to close', () => {
    const recorder = new StreamRecorder({ closeOnDone: true, maxRestarts: 2 });
    expect(recorder.error(2, 0)).toBe('continue');
    expect(recorder.closedBecause).toBeNull();
  });
});
