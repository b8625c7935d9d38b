import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { withTimeout } from '@origin-lab/engines';
import type { Page } from 'playwright-core';

/**
 * Whether the engine of this page keeps no HTTP cache, asked of the engine itself: a server of the
 * check's own, on loopback, gives an answer the engine may keep for ten minutes, and the page asks
 * for it twice. Both requests reaching the server show that the engine kept nothing; one, that it
 * answered the second itself. Any other outcome (an error, no answer within timeoutMs) counts as
 * keeping a cache, the side on which no answer can reach an origin it was not given for.
 *
 * Asked of a Firefox started elsewhere (--connect): the check cannot set its preferences, nor read
 * them. The page is a new one, at about:blank, and is given to the check afterwards.
 */
export async function keepsNoHttpCache(page: Page, timeoutMs: number): Promise<boolean> {
  let requests = 0;
  const server = createServer((request, response) => {
    requests += 1;
    response.writeHead(200, {
      'cache-control': 'max-age=600',
      'access-control-allow-origin': '*',
      'content-type': 'text/plain',
    });
    response.end('kept?');
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const asked = page.evaluate(async (at) => {
      for (let time = 0; time < 2; time += 1) await (await fetch(at)).text();
    }, url);
    await withTimeout(asked, timeoutMs, 'the HTTP cache question');
    return requests === 2;
  } catch {
    return false;
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
