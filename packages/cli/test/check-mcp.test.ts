import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
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

  it('a tool given evidence it cannot read says why, as a tool error', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'explain', arguments: { text: '   ' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('nothing to explain: the input is empty');
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
      } finally {
        await server.stop();
      }
    },
    240_000,
  );
});
