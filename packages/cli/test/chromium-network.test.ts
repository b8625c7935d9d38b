import { EventEmitter } from 'node:events';
import type { CDPSession } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { NetworkLog } from '../src/drivers/chromium-network.js';

// The DevTools protocol's Network events, as Chromium sends them for a page's fetch(): each request
// (a preflight too) first says requestWillBeSent, and a CORS refusal ends it in loadingFailed with
// corsErrorStatus. One emitter stands for the page's CDP session; the log only listens to it.

function session() {
  const events = new EventEmitter();
  const log = new NetworkLog(events as unknown as CDPSession);
  return { log, emit: (name: string, event: object) => events.emit(`Network.${name}`, event) };
}

const willBeSent = (requestId: string, method: string) => ({ requestId, request: { method, url: 'http://api.test/' } });
const refused = (requestId: string, corsError: string) => ({
  requestId,
  corsErrorStatus: { corsError, failedParameter: '' },
});

describe('the network log of one send (Chromium)', () => {
  it('an answer refused for its own headers was answered: the request reached the server', () => {
    const { log, emit } = session();
    log.reset();
    emit('requestWillBeSent', willBeSent('1', 'GET'));
    emit('loadingFailed', refused('1', 'MissingAllowOriginHeader'));
    expect(log.answered).toBe(true);
    expect(log.corsError).toBe('MissingAllowOriginHeader');
  });

  it('a refused preflight: the request itself was never answered', () => {
    const { log, emit } = session();
    log.reset();
    emit('requestWillBeSent', willBeSent('2.p', 'OPTIONS'));
    emit('responseReceived', { requestId: '2.p', type: 'Preflight', response: { status: 204 } });
    emit('requestWillBeSent', willBeSent('2', 'PUT'));
    emit('loadingFailed', refused('2', 'PreflightMissingAllowOriginHeader'));
    expect(log.preflight).toEqual({ sent: true, status: 204 });
    expect(log.answered).toBe(false);
  });

  it('the events of the send before, arriving after this one began, are not read as this one’s', () => {
    const { log, emit } = session();
    log.reset();
    // A GET the server answered without Access-Control-Allow-Origin…
    emit('requestWillBeSent', willBeSent('1', 'GET'));
    log.reset();
    // …whose refusal comes late, once the next send (a refused preflight) began.
    emit('loadingFailed', refused('1', 'MissingAllowOriginHeader'));
    emit('responseReceived', { requestId: '1', type: 'Preflight', response: { status: 200 } });
    emit('requestWillBeSent', willBeSent('2.p', 'OPTIONS'));
    emit('requestWillBeSent', willBeSent('2', 'PUT'));
    emit('loadingFailed', refused('2', 'PreflightMissingAllowOriginHeader'));
    expect(log.answered).toBe(false);
    expect(log.preflight).toEqual({ sent: true, status: null });
    expect(log.corsError).toBe('PreflightMissingAllowOriginHeader');
  });
});
