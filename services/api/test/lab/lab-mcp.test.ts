import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ALLOWED, apiForFile } from '../start-api.js';

/**
 * The MCP lab, from the MCP specification's Streamable HTTP transport (2025-11-25: "Security
 * Warning", "Session Management", "Protocol Version Header") and Fetch's CORS protocol: the
 * official SDK's client talks to it as any MCP client would; the raw exchanges show what each
 * switch changes in what a browser is told.
 */
const api = apiForFile();
const FOREIGN = 'https://attacker.example';
const ACCEPT = 'application/json, text/event-stream';
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
};
const TOOLS_LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const url = (query = '') => `${api.url}/lab/mcp${query}`;

/** A browser's preflight for a call that sends these headers. */
const preflight = (query: string, origin: string, headers = 'content-type') =>
  fetch(url(query), {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': headers },
  });

const call = (query: string, message: unknown, headers: Record<string, string> = {}) =>
  fetch(url(query), {
    method: 'POST',
    headers: { Origin: ALLOWED, 'Content-Type': 'application/json', Accept: ACCEPT, ...headers },
    body: JSON.stringify(message),
  });

/** The SDK's own client, its requests sent with this Origin (as a browser's would be). */
async function sdkClient(origin: string, query = '') {
  const client = new Client({ name: 'lab-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url(query)), {
    requestInit: { headers: { Origin: origin } },
  });
  await client.connect(transport);
  return { client, transport };
}

describe('the MCP lab: a Streamable HTTP server a browser client can use', () => {
  it('the SDK client initializes, lists the one tool, calls it and ends its session', async () => {
    const { client, transport } = await sdkClient(ALLOWED);
    try {
      expect(transport.sessionId).toMatch(UUID);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['whoami']);
      const result = await client.callTool({ name: 'whoami' });
      expect(result.structuredContent).toEqual({ origin: ALLOWED, host: new URL(api.url).host });
      await transport.terminateSession();
      expect(transport.sessionId).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it("an Origin that is not one of the lab's names is refused 403, as the MCP specification requires", async () => {
    await expect(sdkClient(FOREIGN)).rejects.toMatchObject({ code: 403 });
    expect((await call('', INITIALIZE, { Origin: FOREIGN })).status).toBe(403);
    const pre = await preflight('', FOREIGN);
    expect(pre.status).toBe(403);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a call without Origin (not a browser) is let in', async () => {
    const answer = await fetch(url(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: ACCEPT },
      body: JSON.stringify(INITIALIZE),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('the preflight allows the methods and every header an MCP client sends', async () => {
    const pre = await preflight('', ALLOWED, 'content-type,mcp-session-id,mcp-protocol-version');
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(pre.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE');
    expect(pre.headers.get('access-control-allow-headers')?.split(', ')).toEqual(
      expect.arrayContaining(['Content-Type', 'Mcp-Session-Id', 'Mcp-Protocol-Version']),
    );
  });

  it('initialize hands out a session id and exposes it, so a page can read it', async () => {
    const answer = await call('', INITIALIZE);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('mcp-session-id')).toMatch(UUID);
    expect(answer.headers.get('access-control-expose-headers')).toBe('Mcp-Session-Id');
    expect(((await answer.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe(
      '2025-06-18',
    );
  });

  it('a later call without the session id is 400 naming it; one the lab did not give is 404', async () => {
    const without = await call('', TOOLS_LIST);
    expect(without.status).toBe(400);
    expect(((await without.json()) as { error: string }).error).toMatch(/Mcp-Session-Id is missing/);
    expect((await call('', TOOLS_LIST, { 'Mcp-Session-Id': 'forged' })).status).toBe(404);
  });

  it('an unsupported Mcp-Protocol-Version is 400 (the SDK checks it)', async () => {
    const session = (await call('', INITIALIZE)).headers.get('mcp-session-id')!;
    const answer = await call('', TOOLS_LIST, { 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': '1999-01-01' });
    expect(answer.status).toBe(400);
  });

  it('GET is 405: the lab answers in JSON and opens no event stream', async () => {
    const answer = await fetch(url(), { headers: { Origin: ALLOWED, Accept: 'text/event-stream' } });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, POST, DELETE');
    expect(answer.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('a body that is not JSON is 400, one over the limit 413', async () => {
    const broken = await fetch(url(), {
      method: 'POST',
      headers: { Origin: ALLOWED, 'Content-Type': 'application/json', Accept: ACCEPT },
      body: '{"jsonrpc":',
    });
    expect(broken.status).toBe(400);
    const huge = await call('', { ...INITIALIZE, pad: 'x'.repeat(2 * 1024 * 1024) });
    expect(huge.status).toBe(413);
  });

  it.each([
    ['a space', 'a b'],
    ['an unclosed IPv6 bracket', '[::1'],
  ])('a Host header with %s is 400 naming it, not a server error', async (_, host) => {
    const { status, body } = await callWithHost(host, INITIALIZE);
    expect(status).toBe(400);
    expect(JSON.parse(body)).toMatchObject({ error: expect.stringContaining('Host'), header: 'Host' });
  });
});

/** A call sent with a Host header of its own choosing (fetch keeps the URL's), with its status and body. */
function callWithHost(host: string, message: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      url(),
      {
        method: 'POST',
        headers: { Host: host, Origin: ALLOWED, 'Content-Type': 'application/json', Accept: ACCEPT },
      },
      (answer) => {
        let body = '';
        answer.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body }));
      },
    );
    sent.on('error', reject);
    sent.end(JSON.stringify(message));
  });
}

describe('the MCP lab: each switch puts back one mistake', () => {
  it('expose=none: the session id is sent but not exposed, so a page cannot read it', async () => {
    const answer = await call('?expose=none', INITIALIZE);
    expect(answer.headers.get('mcp-session-id')).toMatch(UUID);
    expect(answer.headers.get('access-control-expose-headers')).toBeNull();
  });

  it('protocol-header=refused: the preflight leaves Mcp-Protocol-Version out of the allowed headers', async () => {
    const pre = await preflight('?protocol-header=refused', ALLOWED, 'content-type,mcp-protocol-version');
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')?.split(', ')).not.toContain('Mcp-Protocol-Version');
  });

  it('auth=bearer-preflight: the preflight, which carries no token, is 401 without CORS headers', async () => {
    const pre = await preflight('?auth=bearer-preflight', ALLOWED);
    expect(pre.status).toBe(401);
    expect(pre.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('auth=bearer: the preflight passes; a call without a token is a 401 the page can read; with one, 200', async () => {
    expect((await preflight('?auth=bearer', ALLOWED, 'authorization,content-type')).status).toBe(204);
    const without = await call('?auth=bearer', INITIALIZE);
    expect(without.status).toBe(401);
    expect(without.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect((await call('?auth=bearer', INITIALIZE, { Authorization: 'Bearer lab-token' })).status).toBe(200);
  });

  it("origin=own: only the server's own origin may call; another of the lab's names is 403", async () => {
    expect((await call('?origin=own', INITIALIZE)).status).toBe(403);
    expect((await call('?origin=own', INITIALIZE, { Origin: api.url })).status).toBe(200);
  });

  it('origin=off: any origin calls and reads, with Access-Control-Allow-Origin: *', async () => {
    const { client, transport } = await sdkClient(FOREIGN, '?origin=off');
    try {
      expect(transport.sessionId).toMatch(UUID);
      expect((await client.callTool({ name: 'whoami' })).structuredContent).toMatchObject({ origin: FOREIGN });
    } finally {
      await client.close();
    }
    const pre = await preflight('?origin=off', FOREIGN);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
  });

  it.each([
    ['?retry=1', /unknown parameter retry/],
    ['?origin=maybe', /origin must be one of check, own, off/],
    ['?auth=none&auth=bearer', /auth is given 2 times/],
  ])('%s is a 400 naming the parameter', async (query, message) => {
    const answer = await call(query, INITIALIZE);
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: string }).error).toMatch(message);
  });
});
