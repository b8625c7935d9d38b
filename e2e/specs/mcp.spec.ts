import { expect } from '../fixtures.js';
import { experimentTests, type Check, type PageRun } from './support/per-experiment.js';

/**
 * A browser MCP client against the lab's MCP server on the other origin, from the MCP
 * specification (Streamable HTTP: sessions, the protocol version header, the 403 to an untrusted
 * Origin) and Fetch (a JSON POST is preflighted; a preflight carries no credentials and must be
 * answered 2xx with every request header allowed; a response header not exposed reads null). The
 * page reports each call: its status or the error, whether the session id could be read, and for
 * a call the browser refused, the status the server gave its preflight (its journal).
 */
type Step = { call: string; outcome: string; session?: string; preflight?: number | 'none' };

const steps =
  (...expected: Step[]): Check<PageRun> =>
  (result) =>
    expect(result.observed.steps).toEqual(expected);

const initialized = (session: 'read' | 'not readable'): Step => ({ call: 'initialize', outcome: '200', session });
/** A whole session: initialize (200), the initialized notification (202: accepted, no answer), a tool call (200). */
const wholeSession = [
  initialized('read'),
  { call: 'notifications/initialized', outcome: '202' },
  { call: 'tools/call', outcome: '200' },
];

experimentTests({
  page: 'mcp',
  runTimeout: 60_000,
  run: async (page, { origins }) => {
    await page.open(`${origins.self}/mcp.html`);
    return { results: await page.runAll(60_000) };
  },
  afterRun: {
    'mcp-handshake': steps(...wholeSession),
    // Not exposed: the header reads null; the next call goes without it: the server's 400.
    'mcp-session-hidden': steps(initialized('not readable'), { call: 'notifications/initialized', outcome: '400' }),
    // The later calls' preflight lists Mcp-Protocol-Version, which the answer (204) does not allow.
    'mcp-protocol-header-refused': steps(initialized('read'), {
      call: 'notifications/initialized',
      outcome: 'TypeError',
      preflight: 204,
    }),
    // The preflight carries no Authorization: the auth layer's 401 is a failed preflight.
    'mcp-preflight-behind-auth': steps({ call: 'initialize', outcome: 'TypeError', preflight: 401 }),
    'mcp-auth-after-preflight': steps(...wholeSession),
    // The server's 403 to an Origin it does not take, on the preflight, with no CORS headers.
    'mcp-origin-refused': steps({ call: 'initialize', outcome: 'TypeError', preflight: 403 }),
  },
});
