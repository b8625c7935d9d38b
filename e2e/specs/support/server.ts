import dns from 'node:dns';
import { readFileSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import { test as base } from '../../fixtures.js';
import type { StackInfo } from '../../stacks/stack.js';

export interface ServerAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text: string;
}

/** The server's view, read as curl would: no browser, no CORS, every header and body readable. */
export interface ServerClient {
  get(url: string): Promise<ServerAnswer>;
}

/**
 * glibc does not resolve *.localhost (browsers do), and a LAN stack's names have no DNS here (its
 * browsers are told the same): send those names to loopback.
 */
function loopbackLookup(loopbackNames: readonly string[]): LookupFunction {
  return (hostname, options, callback) => {
    if (hostname === 'localhost' || hostname.endsWith('.localhost') || loopbackNames.includes(hostname)) {
      if (options.all)
        (callback as (err: null, addresses: dns.LookupAddress[]) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(null, '127.0.0.1', 4);
      return;
    }
    dns.lookup(hostname, options, callback as never);
  };
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
      async get(url) {
        const answer = await request(url, { dispatcher: agent });
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
