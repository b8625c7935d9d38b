import { describe, expect, it, vi } from 'vitest';
import { otherOrigin, originRole } from '../web/ts/frame/site.js';
import { base64Length, sampleFileBytes, toBase64 } from '../web/ts/rules/encodings.js';
import { computeJsonTable, stringifyOutcome } from '../web/ts/rules/json-cases.js';
import { describeEntries } from '../web/ts/rules/form-entries.js';
import { sameFamilyDelay } from '@origin-lab/cors-rules/engine-facts';
import { ExitBeacon } from '../web/ts/probes/exit-beacon.js';
import {
  StreamRecorder,
  TimerLateness,
  delaysPass,
  latenessInWords,
  reconnectsInWords,
} from '../web/ts/probes/stream-recorder.js';

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
    const site = { self: 'http://localhost:8080', other: 'http://127.0.0.1:8080', third: null };
    expect(originRole('/api/posts', site)).toBe('this origin');
    expect(originRole('http://127.0.0.1:8080/api/posts', site)).toBe('other origin');
    expect(originRole('http://127.0.0.1:1/', site)).toBe('elsewhere');
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
    expect(recorder.reconnectErrorsAt).toEqual([2_000, 7_000]);
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

  it('says a stream with no reconnect measured did not reconnect, with no delay', () => {
    for (const opens of [0, 1]) {
      const words = reconnectsInWords([], 'resource timing', opens);
      expect(words).toMatch(/^did not reconnect/);
      expect(words).not.toMatch(/\bms\b/);
    }
  });

  it('names each reconnect delay measured and what timed it', () => {
    expect(reconnectsInWords([3_004, 3_015], 'resource timing', 3)).toBe(
      "reconnected after 3004 ms, 3015 ms (timed by the engine's resource timing)",
    );
    expect(reconnectsInWords([512], 'events', 2)).toBe("reconnected after 512 ms (timed by the page's events)");
  });
});

describe("the page's control timer for reconnect delays", () => {
  /** Chromium's and WebKit's family: about 3,000 ms (2,250 to 4,500). */
  const nearThree = (ms: number) => sameFamilyDelay(ms, 3_000);

  it('passes a delay in band as measured, with or without a control', () => {
    expect(delaysPass([3_010, 2_990], [], nearThree)).toBe(true);
    expect(delaysPass([3_010, 2_990], [null, 5], nearThree)).toBe(true);
  });

  it("passes a late delay once the page's timer, as late, is taken off", () => {
    // The classroom's case: the engine's 3 s reconnect seen as 4.5 s while the page itself ran 1.5 s late.
    expect(delaysPass([4_535, 3_488], [1_480, 420], nearThree)).toBe(true);
  });

  it('fails a delay out of band when the page ran on time, or has no lateness known', () => {
    expect(delaysPass([4_535, 3_000], [12, 0], nearThree)).toBe(false);
    expect(delaysPass([4_535, 3_000], [null, 0], nearThree)).toBe(false);
    expect(delaysPass([4_535], [], nearThree)).toBe(false);
  });

  it('never adds lateness: a delay too short stays too short', () => {
    expect(delaysPass([1_000], [2_000], nearThree)).toBe(false);
  });

  it('records each timer in the order started, and leaves one stopped before it ran unknown', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const lateness = new TimerLateness();
      lateness.start(3_000);
      vi.advanceTimersByTime(3_000);
      lateness.start(3_000);
      lateness.stop();
      vi.advanceTimersByTime(5_000);
      expect(lateness.lateMs).toEqual([0, null]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says how late the page ran at each reconnect, and nothing when nothing was measured', () => {
    expect(latenessInWords([])).toBeNull();
    expect(latenessInWords([null])).toBeNull();
    expect(latenessInWords([1_480, null])).toMatch(/^the page itself ran late by 1480 ms, unknown \(/);
  });
});
