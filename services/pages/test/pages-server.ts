import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { serve, type RunningServer } from '@origin-lab/server-kit';
import { createApp } from '../src/app.js';

/**
 * A real pages server on a free loopback port over a folder holding files (path to text), for the
 * describe block that calls it: started before its tests, stopped and its folder removed after.
 * Its base URL is read from the returned object once the tests run.
 */
export function pagesServerFor(files: Record<string, string>): { readonly base: string } {
  const server = { base: '' };
  let root = '';
  let running: RunningServer | undefined;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'pages-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const app = createApp({
      root,
      sitePairs: [['x.localhost', 'y.localhost']],
      thirdSite: null,
      websocketTargetPort: undefined,
      rebindSiteFile: undefined,
    });
    running = await serve(app.callback(), { port: 0, host: '127.0.0.1' });
    server.base = `http://127.0.0.1:${running.port}`;
  });
  afterAll(async () => {
    await running?.stop();
    rmSync(root, { recursive: true, force: true });
  });
  return server;
}
