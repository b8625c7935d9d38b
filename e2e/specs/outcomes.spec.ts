import { expect } from '../fixtures.js';
import { experimentTests, type Check, type PageRun } from './support/per-experiment.js';

/** Both transports give the same result shape and the same failure kinds: the same check, for fetch and for XHR. */
const bothTransports =
  (check: (outcome: Record<string, any>, transport: 'fetch' | 'xhr') => void): Check<PageRun> =>
  ({ observed }) => {
    for (const transport of ['fetch', 'xhr'] as const) check(observed[transport], transport);
  };

// SPEC.md, outcomes: one expectation per experiment, written from the spec.
experimentTests({
  page: 'outcomes',
  runTimeout: 60_000,
  afterRun: {
    'ok-200': bothTransports((at) => {
      expect(at.result).toMatchObject({ ok: true, status: 200 });
      expect(Array.isArray(at.result.data.posts)).toBe(true);
    }),
    'not-found': bothTransports((at) =>
      expect(at.result).toEqual({
        ok: false,
        status: 404,
        data: { error: expect.any(String), path: '/api/no-such-thing' },
      }),
    ),
    'flaky-500': bothTransports((at) =>
      expect(at.result).toEqual({ ok: false, status: 500, data: { error: expect.any(String), rate: 1 } }),
    ),
    'empty-202': bothTransports((at) => expect(at.result).toEqual({ ok: true, status: 202, data: null })),
    'bad-json': bothTransports((at) => expect(at.result).toEqual({ ok: true, status: 200, data: null })),
    // The originals are kept as the cause.
    // WebKit (GTK) 2.50.6, measured: fetch rejects with AbortError, not TimeoutError; the kind,
    // decided by asking the signal, is still timeout (SPEC.md: some engines report AbortError).
    deadline: ({ observed }, { browserName }) => {
      for (const transport of ['fetch', 'xhr'] as const)
        expect(observed[transport].error, transport).toMatchObject({ name: 'TransportError', kind: 'timeout' });
      expect(observed.fetch.error.cause).toBe(browserName === 'webkit' ? 'AbortError' : 'TimeoutError');
      expect(observed.xhr.error.cause).toBe('abort event');
    },
    'caller-abort': bothTransports((at, transport) => {
      expect(at.error).toMatchObject({ name: 'TransportError', kind: 'abort' });
      if (transport === 'fetch') expect(at.error.cause).toBe('AbortError');
    }),
    network: bothTransports((at, transport) => {
      expect(at.error).toMatchObject({ name: 'TransportError', kind: 'network' });
      expect(at.error.cause).toBe(transport === 'fetch' ? 'TypeError' : 'error event');
    }),
    'blocked-read': bothTransports((at) => expect(at.error).toMatchObject({ name: 'TransportError', kind: 'network' })),

    // WebKit (GTK) 2.50.6, measured: the rejection is an AbortError DOMException, not the reason.
    'abort-reason': ({ observed }, { browserName }) =>
      expect(observed).toMatchObject({
        ...(browserName === 'webkit'
          ? { rawType: 'object', rawName: 'AbortError' }
          : { rawType: 'string', rawName: null, rawValue: 'the user left' }),
        transport: { error: { kind: 'abort' } },
      }),
    'body-once': ({ observed }) =>
      expect(observed).toEqual({
        secondRead: 'TypeError',
        cloneBeforeBothRead: true,
        cloneAfterRead: 'TypeError',
      }),
  },
  knownDifferences: {
    deadline: (_result, { browserName }) => browserName === 'webkit',
    'abort-reason': (_result, { browserName }) => browserName === 'webkit',
  },
});
