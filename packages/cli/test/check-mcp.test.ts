import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawnSync } from 'node:child_process';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { pollUntil } from '@origin-lab/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { expressReflectingAll, YOURS } from './fixtures.js';
import { ENGINES, oneEngineName, PROGRAM, STEP_TIMEOUT_MS } from './run-check.js';

// origin-lab mcp as a coding agent's client meets it: the MCP TypeScript SDK's own client over
// stdio, starting the built program. Expectations from the MCP specification (tools/list,
// tools/call: content and structuredContent, isError for a tool's failure) and the check's rules.

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function connect(): Promise<Client> {
  const client = new Client({ name: 'origin-lab-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [PROGRAM, 'mcp'], stderr: 'pipe' }));
  clients.push(client);
  return client;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text: string }[]).map((part) => part.text).join('\n');

describe('origin-lab mcp, with the SDK’s client over stdio', () => {
  it('lists check, explain and engines, each with an input schema', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['check', 'engines', 'explain']);
    const check = tools.find((tool) => tool.name === 'check')!;
    expect(check.inputSchema.required).toEqual(expect.arrayContaining(['url', 'from']));
    expect(tools.find((tool) => tool.name === 'explain')!.annotations?.readOnlyHint).toBe(true);
  });

  it("explain reads Chromium's console line: the missing Allow-Origin, and the fix", async () => {
    const client = await connect();
    const line =
      "Access to fetch at 'https://api.example.com/me' from origin 'https://app.example.com' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.";
    const result = await client.callTool({ name: 'explain', arguments: { text: line } });
    expect(result.isError).toBeFalsy();
    const { explanations } = result.structuredContent as { explanations: { verdict: string; rule: string }[] };
    expect(explanations).toEqual([expect.objectContaining({ verdict: 'refused', rule: 'no-allow-origin' })]);
    expect(textOf(result)).toMatch(
      /^REFUSED https:\/\/api\.example\.com\/me: The answer had no Access-Control-Allow-Origin header/,
    );
    expect(textOf(result)).toContain('Fix: Send Access-Control-Allow-Origin: https://app.example.com');
  });

  it('explain keeps what it was handed to itself: cookies and tokens appear in no part of the answer', async () => {
    const client = await connect();
    const curl = [
      '> GET /me HTTP/1.1',
      '> Host: api.example.com',
      '> Origin: https://app.example.com',
      '> Cookie: session=COOKIE-SECRET-4711',
      '> Authorization: Bearer TOKEN-SECRET-0815',
      '>',
      '< HTTP/1.1 200 OK',
      '< Access-Control-Allow-Origin: *',
      '< Set-Cookie: next=SETCOOKIE-SECRET-2342; Secure',
      '<',
    ].join('\n');
    const result = await client.callTool({ name: 'explain', arguments: { text: curl } });
    const everything = JSON.stringify(result);
    for (const secret of ['COOKIE-SECRET-4711', 'TOKEN-SECRET-0815', 'SETCOOKIE-SECRET-2342'])
      expect(everything).not.toContain(secret);
  });

  it("explain keeps a URL's password and query values and the lines it could not read to itself", async () => {
    const client = await connect();
    const har = JSON.stringify({
      log: {
        entries: [
          {
            request: {
              method: 'GET',
              url: 'https://user:PASSWORD-SECRET-1234@api.example.com/x?key=QUERY-SECRET-9',
              headers: [{ name: 'Origin', value: 'https://app.example.com' }],
            },
            response: { status: 200, headers: [] },
          },
        ],
      },
    });
    const line =
      "Access to fetch at 'https://api.example.com/me?api_key=QUERY-SECRET-8' from origin 'https://app.example.com' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.";
    for (const text of [har, `token=LINE-SECRET-5678\n${line}`]) {
      const result = await client.callTool({ name: 'explain', arguments: { text } });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result)).not.toMatch(/PASSWORD-SECRET|LINE-SECRET|QUERY-SECRET/);
    }
  });

  it("explain answers evidence past the SDK's 10 MB message, and a long one in part, saying how much more", async () => {
    const client = await connect();
    // A HAR just over the SDK's 10 MB, its one request same-origin: read, and said to hold nothing.
    const padding = 'x'.repeat(10.5 * 1024 * 1024);
    const har = JSON.stringify({
      log: {
        entries: [
          {
            request: { method: 'GET', url: 'https://a.example/', headers: [] },
            response: { content: { text: padding } },
          },
        ],
      },
    });
    const big = await client.callTool({ name: 'explain', arguments: { text: har } });
    expect(textOf(big)).toMatch(/^the HAR holds no cross-origin request/);
    const line = (n: number) =>
      `Access to fetch at 'https://api.example.com/items/${n}' from origin 'https://app.example.com' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.`;
    const many = await client.callTool({
      name: 'explain',
      arguments: { text: Array.from({ length: 3_000 }, (_, n) => line(n)).join('\n') },
    });
    const { explanations, more } = many.structuredContent as { explanations: unknown[]; more: number };
    expect([explanations.length, more]).toEqual([200, 2_800]);
    expect(textOf(many).split('\n').at(-1)).toBe(
      '… and 2800 more, not in this answer (origin-lab explain on the file lists every one).',
    );
    // The SDK's transport reads a long message in quadratic time: seconds on a busy machine.
  }, 90_000);

  /** A server that takes connections and never answers, and whether a check of it still runs. */
  async function silentTarget() {
    const sockets = new Set<Socket>();
    const server = createServer((socket) => void sockets.add(socket)).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/never-answers`;
    const checkRuns = () => spawnSync('pgrep', ['-f', `check .*${url}`]).stdout.toString() !== '';
    const stop = () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    };
    return { url, checkRuns, stop };
  }

  it('a check the client cancels, or leaves by closing the connection, is stopped', async () => {
    const target = await silentTarget();
    try {
      for (const leave of ['cancel', 'close'] as const) {
        const client = await connect();
        const abort = new AbortController();
        const call = client.callTool(
          { name: 'check', arguments: { url: target.url, from: [YOURS], timeout: 60_000 } },
          undefined,
          { signal: abort.signal, timeout: 120_000 },
        );
        call.catch(() => undefined);
        await pollUntil('the check to start', () => target.checkRuns(), { timeoutMs: 15_000 });
        if (leave === 'cancel') abort.abort();
        else await client.close();
        await pollUntil(`the check to stop (${leave})`, () => !target.checkRuns(), { timeoutMs: 15_000 });
      }
    } finally {
      await target.stop();
    }
  }, 60_000);

  it('a tool given evidence it cannot read says why, as a tool error', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'explain', arguments: { text: '   ' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('nothing to explain: the input is empty');
    const origin = await client.callTool({
      name: 'explain',
      arguments: { text: 'HTTP/1.1 200 OK', origin: 'not an origin' },
    });
    expect(origin.isError).toBe(true);
    expect(textOf(origin)).toBe('origin "not an origin" is not an origin: write scheme://host[:port]');
  });

  it.skipIf(ENGINES.length === 0)(
    'check runs real engines: any origin reads with credentials, a high finding with its fix',
    async () => {
      const client = await connect();
      const server = await expressReflectingAll();
      try {
        const engine = oneEngineName('chromium');
        const result = await client.callTool(
          {
            name: 'check',
            arguments: {
              url: server.url,
              from: [YOURS],
              engines: [engine],
              quick: true,
              alsoHostile: ['http://localhost:3000'],
              localNetwork: 'public',
              // The test run's bound on each step (run-check.ts), not what is tested.
              timeout: STEP_TIMEOUT_MS,
            },
          },
          undefined,
          { timeout: 200_000 },
        );
        expect(result.isError).toBeFalsy();
        const report = result.structuredContent as {
          exitCode: number;
          findings: { kind: string; severity: string; origins: string[] }[];
        };
        expect(report.findings).toEqual([
          expect.objectContaining({ kind: 'hostile-read-credentials', severity: 'high' }),
        ]);
        // The quick classes and the origin named as hostile, every one read with credentials.
        expect(report.findings[0]!.origins).toEqual(
          expect.arrayContaining(['http://attacker.test', 'http://evil.example.test', 'http://localhost:3000']),
        );
        expect(report.exitCode).toBe(1);
        expect(textOf(result)).toMatch(/^FAIL: 1 finding\(s\) for http:\/\/127\.0\.0\.1:\d+\/me in /);
        expect(textOf(result)).toContain('HIGH: Origins you did not name read your API with the user’s credentials.');

        // Bad input is the command's own one line, as a tool error.
        const bad = await client.callTool({
          name: 'check',
          arguments: { url: server.url, from: ['app.example.test'] },
        });
        expect(bad.isError).toBe(true);
        expect(textOf(bad)).toBe('--from "app.example.test" is not an origin: write scheme://host[:port]');
        const both = await client.callTool({
          name: 'check',
          arguments: { url: server.url, from: [YOURS], quick: true, hostile: ['null'] },
        });
        expect(both.isError).toBe(true);
        expect(textOf(both)).toBe('--quick and --hostile both choose the attacker origins: give one of them');
        // Whatever an agent writes is a value, never an option; a session given inline is not repeated.
        const option = await client.callTool({ name: 'check', arguments: { url: '--help', from: [YOURS] } });
        expect(textOf(option)).toBe('"--help" is not a URL: write it whole, e.g. https://api.example.com/me');
        const inline = await client.callTool({
          name: 'check',
          arguments: {
            url: server.url,
            from: [YOURS],
            session: '{"cookies":[{"name":"sid","value":"SESSION-SECRET"}]}',
          },
        });
        expect(inline.isError).toBe(true);
        expect(JSON.stringify(inline)).not.toContain('SESSION-SECRET');
      } finally {
        await server.stop();
      }
    },
    240_000,
  );
});
