// The MCP page: a browser MCP client (written here with fetch, so every header shows) calling the
// lab's MCP server (/lab/mcp) at the other origin, once as the server should be set up and once
// per switch that puts back a mistake. Each experiment reports each step as the page saw it, and
// for a step the browser refused, what the server saw of it (the journal): its preflight's status.
import { labMcpUrl, LAB_MCP_TOOL, type LabMcpSettings } from '@origin-lab/contract/lab-mcp';
import { marker } from '../frame/dom.js';
import { experiment, runAllButton } from '../frame/experiment.js';
import { setupPage } from '../page/setup-page.js';
import { markedUrl, serverEvidence } from '../probes/journal.js';

const ctx = setupPage();
const box = ctx.experiments;
runAllButton(box);

/** The protocol version the page's client speaks (the MCP specification of 2025-11-25). */
const PROTOCOL_VERSION = '2025-11-25';
/** How long the journal is asked about a request the browser may have refused. */
const ARRIVAL_WAIT_MS = 2_000;
/** The token the page sends where the server asks for one: any token does, the lab checks its shape. */
const TOKEN = 'Bearer lab-demo-token';

interface CallOptions {
  session?: string | null;
  token?: boolean;
  protocolHeader?: boolean;
}

/** What one call gave the page, and, when the browser refused it, what the server saw: its preflight's status or nothing. */
interface Step {
  call: string;
  outcome: string;
  session?: 'read' | 'not readable';
  preflight?: number | 'none';
}

/** One JSON-RPC message sent as an MCP client sends it over Streamable HTTP: the step, and the session id the page could read. */
async function send(
  url: string,
  method: string,
  options: CallOptions,
  id: number | null,
): Promise<{ step: Step; sessionId: string | null }> {
  const mark = marker('mcp');
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
  };
  if (options.session) headers['Mcp-Session-Id'] = options.session;
  if (options.protocolHeader) headers['Mcp-Protocol-Version'] = PROTOCOL_VERSION;
  if (options.token) headers.Authorization = TOKEN;
  const params =
    method === 'initialize'
      ? { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'origin-lab page', version: '1' } }
      : method === 'tools/call'
        ? { name: LAB_MCP_TOOL }
        : undefined;
  const body = JSON.stringify({ jsonrpc: '2.0', ...(id !== null && { id }), method, ...(params && { params }) });
  try {
    const answer = await fetch(markedUrl(url, mark), { method: 'POST', headers, body });
    const sessionId = answer.headers.get('Mcp-Session-Id');
    const step: Step = { call: method, outcome: String(answer.status) };
    if (method === 'initialize') step.session = sessionId ? 'read' : 'not readable';
    return { step, sessionId };
  } catch (err) {
    const seen = await serverEvidence(ctx.journal, mark, ARRIVAL_WAIT_MS);
    return {
      step: { call: method, outcome: (err as Error).name, preflight: seen.preflight?.status ?? 'none' },
      sessionId: null,
    };
  }
}

/** initialize, then (if it was answered) the initialized notification and a tool call, as far as the browser lets them go. */
async function session(settings: Partial<LabMcpSettings>, token = false): Promise<Step[]> {
  const url = labMcpUrl(ctx.other(), settings);
  const first = await send(url, 'initialize', { token }, 1);
  if (first.step.outcome !== '200') return [first.step];
  const later = { session: first.sessionId, token, protocolHeader: true };
  const steps = [first.step];
  for (const [method, id] of [
    ['notifications/initialized', null],
    ['tools/call', 2],
  ] as const) {
    const { step } = await send(url, method, later, id);
    steps.push(step);
    if (!/^2/.test(step.outcome)) break;
  }
  return steps;
}

/** The steps in words, one after another. */
function said(steps: Step[]): string {
  return steps
    .map((step) => {
      const what = /^\d/.test(step.outcome) ? `status ${step.outcome}` : `${step.outcome} (refused by the browser)`;
      const session = step.session ? `, session id ${step.session}` : '';
      const server =
        step.preflight === undefined
          ? ''
          : step.preflight === 'none'
            ? '; the server saw no preflight'
            : `; the server answered its preflight ${step.preflight}`;
      return `${step.call}: ${what}${session}${server}`;
    })
    .join(' → ');
}

/** A whole session: initialize (read), the initialized notification (202: accepted, no answer), a tool call. */
const WHOLE_SESSION: Step[] = [
  { call: 'initialize', outcome: '200', session: 'read' },
  { call: 'notifications/initialized', outcome: '202' },
  { call: 'tools/call', outcome: '200' },
];

const EXPERIMENTS: {
  id: string;
  title: string;
  settings: Partial<LabMcpSettings>;
  token?: boolean;
  predicted: string;
  expected: Step[];
}[] = [
  {
    id: 'mcp-handshake',
    title: 'initialize, then a tool call, against a server set up for browsers',
    settings: {},
    predicted:
      'Each POST is preflighted (Content-Type: application/json, then the MCP headers) and allowed. initialize gives a session id the page can read (it is exposed); the initialized notification is accepted (202); the tool call, carrying the session id and Mcp-Protocol-Version, is answered 200.',
    expected: WHOLE_SESSION,
  },
  {
    id: 'mcp-session-hidden',
    title: 'The session id not exposed (expose=none)',
    settings: { expose: 'none' },
    predicted:
      'initialize is answered 200 with an Mcp-Session-Id header, but CORS hides every response header not exposed: the page reads null. Its next call goes without a session id, and the server answers 400. The fix: Access-Control-Expose-Headers: Mcp-Session-Id.',
    expected: [
      { call: 'initialize', outcome: '200', session: 'not readable' },
      { call: 'notifications/initialized', outcome: '400' },
    ],
  },
  {
    id: 'mcp-protocol-header-refused',
    title: 'Mcp-Protocol-Version not allowed (protocol-header=refused)',
    settings: { 'protocol-header': 'refused' },
    predicted:
      'initialize sends no Mcp-Protocol-Version and passes. Every later call sends it, its preflight does not list it in Access-Control-Allow-Headers, so fetch rejects with TypeError: the server answered the preflight 204 and never saw the call. The fix: allow Mcp-Protocol-Version (and Mcp-Session-Id).',
    expected: [
      { call: 'initialize', outcome: '200', session: 'read' },
      { call: 'notifications/initialized', outcome: 'TypeError', preflight: 204 },
    ],
  },
  {
    id: 'mcp-preflight-behind-auth',
    title: 'The preflight behind auth (auth=bearer-preflight)',
    settings: { auth: 'bearer-preflight' },
    token: true,
    predicted:
      'The page sends Authorization, so its call is preflighted; a preflight never carries credentials, the auth layer answers it 401, and a preflight must be answered 2xx: fetch rejects with TypeError and the call never leaves. The fix: answer OPTIONS before the auth layer.',
    expected: [{ call: 'initialize', outcome: 'TypeError', preflight: 401 }],
  },
  {
    id: 'mcp-auth-after-preflight',
    title: 'The fix: auth on the calls, not on the preflight (auth=bearer)',
    settings: { auth: 'bearer' },
    token: true,
    predicted:
      'The preflight passes without a token and allows Authorization; each call carries the token and is answered as in the handshake.',
    expected: WHOLE_SESSION,
  },
  {
    id: 'mcp-origin-refused',
    title: "A server that takes only its own origin (origin=own): this page's origin is refused",
    settings: { origin: 'own' },
    predicted:
      'The MCP specification asks a server to answer 403 to an Origin it does not trust. The preflight gets that 403, without CORS headers: fetch rejects with TypeError, and the call never leaves. This is the defence against other sites (and, with a Host check, against DNS rebinding); the fix for a page you trust is to list its origin.',
    expected: [{ call: 'initialize', outcome: 'TypeError', preflight: 403 }],
  },
];

/** Whether the steps are the ones expected, field by field. */
const sameSteps = (steps: Step[], expected: Step[]) =>
  steps.length === expected.length &&
  steps.every((step, i) =>
    (['call', 'outcome', 'session', 'preflight'] as const).every((field) => step[field] === expected[i]![field]),
  );

for (const { id, title, settings, token, predicted, expected } of EXPERIMENTS)
  experiment(box, {
    id,
    title,
    predicted,
    async run() {
      const steps = await session(settings, token);
      return {
        observed: { steps },
        summary: said(steps),
        agrees: sameSteps(steps, expected),
      };
    },
  });
