import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import { test as base } from '../../fixtures.js';
import { loopbackLookup } from '../../stacks/loopback.js';
import type { StackInfo } from '../../stacks/stack.js';

export interface ServerAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text: string;
}

/** The server's view, read as curl would: no browser, no CORS, every header and body readable. */
export interface ServerClient {
  /** headers: what the request asks with beside undici's own (an Accept, say). */
  get(url: string, headers?: Record<string, string>): Promise<ServerAnswer>;
}

function serverClient(stack: StackInfo): { client: ServerClient; close: () => Promise<void> } {
  const agent = new Agent({
    connect: {
      lookup: loopbackLookup(stack.loopbackNames ?? []),
      ...(stack.caCert ? { ca: readFileSync(stack.caCert, 'utf8') } : {}),
    },
    headersTimeout: 15_000,
    bodyTimeout: 15_000,
  });
  return {
    client: {
      async get(url, asked = {}) {
        const answer = await request(url, { dispatcher: agent, headers: asked });
        const body = Buffer.from(await answer.body.arrayBuffer());
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(answer.headers))
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        return { status: answer.statusCode, headers, body, text: body.toString('utf8') };
      },
    },
    close: () => agent.close(),
  };
}

/** The project's test, plus `server`: a non-browser client for what a page cannot see. */
export const test = base.extend<{ server: ServerClient }>({
  server: async ({ stack }, use) => {
    const { client, close } = serverClient(stack);
    await use(client);
    await close();
  },
});

export { expect } from '../../fixtures.js';
