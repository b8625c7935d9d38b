import { test, expect } from '../fixtures.js';
import { openPage, runAll } from './support/experiments.js';

test('outcomes: both transports give the same result shape and the same failure kinds', async ({ page, origins }) => {
  await openPage(page, `${origins.self}/outcomes.html`);
  const r = await runAll(page);

  for (const transport of ['fetch', 'xhr'] as const) {
    const at = (id: string) => r[id]!.observed[transport];
    expect(at('ok-200').result).toMatchObject({ ok: true, status: 200 });
    expect(Array.isArray(at('ok-200').result.data.posts)).toBe(true);
    expect(at('not-found').result).toEqual({
      ok: false,
      status: 404,
      data: { error: expect.any(String), path: '/api/no-such-thing' },
    });
    expect(at('flaky-500').result).toEqual({ ok: false, status: 500, data: { error: expect.any(String), rate: 1 } });
    expect(at('empty-202').result).toEqual({ ok: true, status: 202, data: null });
    expect(at('bad-json').result).toEqual({ ok: true, status: 200, data: null });
    expect(at('deadline').error).toMatchObject({ name: 'TransportError', kind: 'timeout' });
    expect(at('caller-abort').error).toMatchObject({ name: 'TransportError', kind: 'abort' });
    expect(at('network').error).toMatchObject({ name: 'TransportError', kind: 'network' });
    expect(at('blocked-read').error).toMatchObject({ name: 'TransportError', kind: 'network' });
  }
  // The originals are kept as the cause.
  expect(r['deadline']!.observed.fetch.error.cause).toBe('TimeoutError');
  expect(r['caller-abort']!.observed.fetch.error.cause).toBe('AbortError');
  expect(r['network']!.observed.fetch.error.cause).toBe('TypeError');
  expect(r['network']!.observed.xhr.error.cause).toBe('error event');
  expect(r['deadline']!.observed.xhr.error.cause).toBe('abort event');

  expect(r['abort-reason']!.observed).toMatchObject({
    rawType: 'string',
    rawValue: 'the user left',
    transport: { error: { kind: 'abort' } },
  });
  expect(r['body-once']!.observed).toEqual({
    secondRead: 'TypeError',
    cloneBeforeBothRead: true,
    cloneAfterRead: 'TypeError',
  });

  for (const [id, result] of Object.entries(r)) expect(result.state, id).toBe('agree');
});
