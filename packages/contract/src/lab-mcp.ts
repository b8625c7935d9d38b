/**
 * The MCP lab (`/lab/mcp`): a Model Context Protocol server over Streamable HTTP, with the CORS a
 * browser client needs, and one switch per mistake that breaks such a client. Each switch is a
 * query parameter; absent, the server is set up right. The page writes the URL with `labMcpUrl`,
 * the api reads it with `readLabMcpQuery`: one list of names and choices for both.
 */

import { readSwitches, type SwitchesRead } from './switches.js';

/** Where the api serves the MCP lab. */
export const LAB_MCP_PATH = '/lab/mcp';

/**
 * Each switch and its choices, the right one first (the default).
 * - origin: `check` refuses (403) an Origin that is not one of the lab's names, as the MCP
 *   specification asks; `own` takes only the server's own origin, so a page on the other name is
 *   refused; `off` checks nothing and allows `*` (what `cors()` with no options does).
 * - expose: `session-id` names Mcp-Session-Id in Access-Control-Expose-Headers; `none` leaves it
 *   out, so a page cannot read the session it was given.
 * - protocol-header: `allowed` lists Mcp-Protocol-Version in Access-Control-Allow-Headers;
 *   `refused` leaves it out, so the preflight of every call after initialize fails.
 * - auth: `none`; `bearer` asks every call for a bearer token and lets preflights through;
 *   `bearer-preflight` asks the preflight too, which a browser never sends a token with.
 */
export const LAB_MCP_SWITCHES = {
  origin: ['check', 'own', 'off'],
  expose: ['session-id', 'none'],
  'protocol-header': ['allowed', 'refused'],
  auth: ['none', 'bearer', 'bearer-preflight'],
} as const;

export type LabMcpSwitch = keyof typeof LAB_MCP_SWITCHES;
export type LabMcpSettings = { [name in LabMcpSwitch]: (typeof LAB_MCP_SWITCHES)[name][number] };

/** The server as it should be: every switch at its first choice. */
export const LAB_MCP_DEFAULTS: LabMcpSettings = {
  origin: 'check',
  expose: 'session-id',
  'protocol-header': 'allowed',
  auth: 'none',
};

/** Parameters the lab takes besides its switches: the journal's visitor token and a request's mark. */
export const LAB_MCP_TAGS = ['visitor', 'mark'] as const;

/** The one tool the lab's server offers: it says which Origin and Host the call came with. */
export const LAB_MCP_TOOL = 'whoami';

/** The lab's URL on base (an origin) with the switches that differ from the defaults. */
export function labMcpUrl(base: string, settings: Partial<LabMcpSettings> = {}): string {
  const url = new URL(LAB_MCP_PATH, base);
  for (const name of Object.keys(LAB_MCP_SWITCHES) as LabMcpSwitch[]) {
    const value = settings[name];
    if (value !== undefined && value !== LAB_MCP_DEFAULTS[name]) url.searchParams.set(name, value);
  }
  return url.href;
}

export type LabMcpRead = SwitchesRead<LabMcpSettings>;

/** A query string read: the settings, or the first parameter that is unknown, repeated or not one of its choices. */
export function readLabMcpQuery(query: URLSearchParams): LabMcpRead {
  return readSwitches(query, LAB_MCP_SWITCHES, LAB_MCP_DEFAULTS, LAB_MCP_TAGS);
}
