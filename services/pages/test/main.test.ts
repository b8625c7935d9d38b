import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnWatched } from '@origin-lab/test-kit';

// The pages server on its own, as docker compose's `pages` service runs it: a bad setting is one
// line and exit 2 (a restart loop of stack traces otherwise), and so is a folder without pages.

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const empty = mkdtempSync(path.join(tmpdir(), 'pages-root-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

describe('services/pages/dist/main.js', () => {
  it('serves the built pages on PORT and stops cleanly on SIGTERM', async () => {
    const pages = spawnWatched(process.execPath, [main], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1' } });
    try {
      const port = Number((await pages.waitFor(/"port":(\d+)/, 10_000, 'the pages server'))[1]);
      const index = await fetch(`http://127.0.0.1:${port}/`);
      expect([index.status, index.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    } finally {
      pages.child.kill('SIGTERM');
    }
    expect(await pages.exited).toBe(0);
  });

  it('a port that is taken: one line naming it, exit 2', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const pages = spawnWatched(process.execPath, [main], {
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
      });
      expect(await pages.exited).toBe(2);
      expect(pages.stderr().trim()).toBe(`port ${port} is taken: start with another, e.g. PORT=8081`);
    } finally {
      blocker.close();
    }
  });

  it.each([
    [{ SITE_C: 'http://c.localhost' }, 'configuration error: SITE_C'],
    [{ STUDENT_ORIGINS: 'ftp://x' }, 'configuration error: STUDENT_ORIGINS'],
    [{ WEBSOCKET_TARGET_PORT: '0' }, 'configuration error: WEBSOCKET_TARGET_PORT'],
    [{ PAGES_ROOT: empty }, `configuration error: PAGES_ROOT=${empty} holds no index.html`],
  ])('%j: one line saying what is wrong, exit 2', async (env, message) => {
    const pages = spawnWatched(process.execPath, [main], { env: { ...process.env, PORT: '0', ...env } });
    expect(await pages.exited).toBe(2);
    expect(pages.stderr().trim().split('\n')).toHaveLength(1);
    expect(pages.stderr()).toContain(message);
  });
});
