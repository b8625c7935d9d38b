import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { spawnWatched } from '@origin-lab/test-kit';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));

/** Runs dist/main.js until it prints its port (or exits); returns the output and a stop function. */
async function start(env: Record<string, string>) {
  if (!existsSync(main)) throw new Error(`${main} is missing: run "npm run build" first`);
  const mock = spawnWatched(process.execPath, [main], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', UPSTREAM_API_KEY: '', UPSTREAM_API_KEY_FILE: '', ...env },
  });
  // A process that exits before it listens has no port (the test then looks at why).
  const port = await mock.waitFor(/"port":(\d+)/, 10_000, 'the upstream-mock').then(
    (match) => Number(match[1]),
    (err: unknown) => {
      if (mock.child.exitCode === null && mock.child.signalCode === null) throw err;
      return undefined;
    },
  );
  const stop = async () => {
    await mock.stop();
    return mock.exited;
  };
  return { port, output: mock.output, stop, exited: mock.exited };
}

describe('services/upstream-mock/dist/main.js', () => {
  it('reads the key from UPSTREAM_API_KEY_FILE (a Docker secret), listens on PORT, and stops cleanly on SIGTERM', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mock-key-'));
    const file = path.join(dir, 'upstream_api_key');
    writeFileSync(file, 'key-from-a-secret-file\n');
    const mock = await start({ UPSTREAM_API_KEY_FILE: file });
    try {
      expect(mock.port).toBeGreaterThan(0);
      const url = `http://127.0.0.1:${mock.port}`;
      expect((await fetch(`${url}/tags`, { headers: { Authorization: 'Bearer key-from-a-secret-file' } })).status).toBe(
        200,
      );
      expect((await fetch(`${url}/tags`, { headers: { Authorization: 'Bearer dev-only-upstream-key' } })).status).toBe(
        401,
      );
      expect(await mock.stop()).toBe(0);
      expect(mock.output()).not.toContain('key-from-a-secret-file');
    } finally {
      await mock.stop();
      rmSync(dir, { recursive: true });
    }
  });

  it('without a key it uses the development key shared with the API default, and says so', async () => {
    const mock = await start({});
    try {
      expect(mock.output()).toContain('"devKey":true');
      expect(
        (
          await fetch(`http://127.0.0.1:${mock.port}/tags`, {
            headers: { Authorization: 'Bearer dev-only-upstream-key' },
          })
        ).status,
      ).toBe(200);
    } finally {
      await mock.stop();
    }
  });

  it('an unusable key is a configuration error (exit 2) that does not print the key', async () => {
    const mock = await start({ UPSTREAM_API_KEY: 'secret with spaces' });
    expect(mock.port).toBeUndefined();
    expect(await mock.exited).toBe(2);
    expect(mock.output()).toMatch(/configuration error/);
    expect(mock.output()).not.toContain('secret with spaces');
  });
});
