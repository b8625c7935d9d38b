import type { EngineRow, EngineTable } from './engine-rows.js';

/**
 * Every experiment of the Local Network Access page, engine by engine, for the engines page: what
 * each engine did with the page counted public (as a real attacker's page is) and the user's
 * answer no. Written from each engine's shipped behaviour (Chromium since 142, Firefox 153's first
 * version, none in WebKitGTK 2.50) and measured: the e2e run that counts the page public compares
 * each engine's outcome with its cell here (e2e/specs/local-network.spec.ts), so a new engine
 * version that behaves otherwise fails until this table says so. Only the engines page loads it.
 */

const CHROMIUM_STOPS = 'stopped before it leaves: the fetch rejects';
const FIREFOX_STOPS = 'stopped before it leaves (its loopback permission refused)';
const WEBKIT_GOES = 'no Local Network Access: it goes, CORS decides';

/** A request every engine with Local Network Access stops, and WebKit sends, CORS then reading it. */
const stoppedByTwo = (experiment: string, asks: string, webkitOutcome = '200'): EngineRow => ({
  experiment,
  asks,
  engines: {
    chromium: { outcome: 'TypeError', arrived: false, said: CHROMIUM_STOPS },
    firefox: { outcome: 'TypeError', arrived: false, said: FIREFOX_STOPS },
    webkit: { outcome: webkitOutcome, arrived: true, said: WEBKIT_GOES },
  },
});

const ROWS: readonly EngineRow[] = [
  stoppedByTwo('lna-allowed', 'a fetch CORS allows'),
  stoppedByTwo('lna-cors-refused', 'a fetch CORS refuses to read', 'TypeError'),
  stoppedByTwo('lna-worker', "a worker's fetch"),
  {
    experiment: 'lna-iframe',
    asks: 'a frame',
    engines: {
      chromium: { outcome: 'load', arrived: false, said: 'stopped; its error page still fires load' },
      firefox: { outcome: 'no load event', arrived: false, said: 'stopped; no load event' },
      webkit: { outcome: 'load', arrived: true, said: WEBKIT_GOES },
    },
  },
  {
    experiment: 'lna-websocket',
    asks: 'a WebSocket to a separate local server',
    engines: {
      chromium: { outcome: 'error', arrived: false, said: 'stopped (WebSocket is checked since 147)' },
      firefox: { outcome: 'opened', arrived: true, said: 'connects although refused: WebSocket is checked from 154' },
      webkit: { outcome: 'opened', arrived: true, said: WEBKIT_GOES },
    },
  },
  {
    experiment: 'lna-private',
    asks: "a fetch to one of the machine's private addresses",
    engines: {
      chromium: { outcome: 'TypeError', arrived: false, said: 'stopped: one permission for loopback and private' },
      firefox: { outcome: 'TypeError', arrived: false, said: 'stopped by its local-network permission' },
      webkit: { outcome: '200', arrived: true, said: WEBKIT_GOES },
    },
  },
  stoppedByTwo('lna-target-address-space', "a fetch saying targetAddressSpace: 'loopback'"),
  {
    ...stoppedByTwo('lna-target-address-space-wrong', "a fetch saying targetAddressSpace: 'local' to loopback"),
    engines: {
      chromium: {
        outcome: 'TypeError',
        arrived: false,
        said: 'fails: the address space reached is not the one said (also from a page on loopback)',
      },
      firefox: { outcome: 'TypeError', arrived: false, said: `${FIREFOX_STOPS}; the option is ignored` },
      webkit: { outcome: '200', arrived: true, said: `${WEBKIT_GOES}; the option is ignored` },
    },
  },
  {
    experiment: 'rebind-open',
    asks: 'DNS rebinding against a local server that answers any Host',
    engines: {
      chromium: {
        outcome: 'failed',
        said: 'rebinds after its own minute of DNS cache; every rebound request then stopped (not a secure context)',
      },
      firefox: { outcome: 'read', said: 'rebinds after the TTL (about 1.6 s) and reads: the request is same-origin' },
      webkit: { outcome: 'not-loaded', said: "cannot be shown: it asks the system's resolver, not the lab's" },
    },
  },
  {
    experiment: 'rebind-checked',
    asks: 'the same attack against a server that checks Host (as a person runs it, not counted public)',
    engines: {
      chromium: { outcome: 'refused', said: 'rebinds after its minute; the server refuses the Host: 403' },
      firefox: { outcome: 'refused', said: 'rebinds after the TTL; the server refuses the Host: 403' },
      webkit: { outcome: 'not-loaded', said: "cannot be shown: it asks the system's resolver, not the lab's" },
    },
  },
];

export const LOCAL_NETWORK_ENGINES: EngineTable = {
  page: 'local-network',
  caption: 'Each Local Network Access experiment, the page counted public and the user saying no',
  rows: ROWS,
};
