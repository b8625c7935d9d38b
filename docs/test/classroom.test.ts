import { exec, execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { pollUntil, spawnWatched } from '@origin-lab/test-kit';
import { findCaddy } from '../../launcher/src/caddy.js';
import { redisForFile } from '../../services/api/test/shared-state/backends.js';
import { newVisitor, postForm } from '../../services/api/test/shared-state/replicas.js';
import { startApi, type TestApi } from '../../services/api/test/start-api.js';

/**
 * docs/classroom.md, "Between classes": the command that starts the next class clean. Compose keeps
 * the api's posts, beacons and journals in its redis service (on a volume), so a restart of the api
 * keeps them. The documented command empties that Redis with redis-cli. Here the api runs as compose
 * runs it, on a real redis-server with compose's persistence, and the command's redis-cli part is
 * run against that server. (The whole command, `docker compose` included, was run once on the
 * compose set itself: docs/decisions.md, "Starting a class clean".)
 */
const root = new URL('../../', import.meta.url);
const classroom = readFileSync(new URL('docs/classroom.md', root), 'utf8');
const composeFile = readFileSync(new URL('docker-compose.yml', root), 'utf8');
const redisCli = process.env.REDIS_CLI ?? 'redis-cli';

/** The first sh code block of the section whose heading ends with `title`, one command per line. */
function commandsUnder(markdown: string, title: string): string[] {
  const section = markdown.split(/^## /m).find((part) => part.split('\n')[0]!.endsWith(title));
  if (section === undefined) throw new Error(`no section "${title}"`);
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error(`section "${title}" has no sh block`);
  // A block inside a list item is indented with it.
  return block
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** The start-clean command as documented: which compose service it runs redis-cli in, and with what. */
function documentedReset(): { command: string; service: string; cliArgs: string[] } {
  const [command = '', ...more] = commandsUnder(classroom, 'Between classes');
  expect(more, 'one command in the block').toEqual([]);
  const parsed = /^docker compose exec -T (\S+) redis-cli (.+)$/.exec(command);
  if (!parsed) throw new Error(`not a redis-cli command run in a compose service: ${command}`);
  return { command, service: parsed[1]!, cliArgs: parsed[2]!.split(/\s+/) };
}

const redis = redisForFile({ persistence: true });

/** The api as compose runs it: state in Redis, under compose's key prefix. */
const composeApi = () => startApi({ redis: { ...redis.settings(), keyPrefix: 'origin-lab:' } });

/** What a class leaves: a post, a beacon and a journalled request of a visitor. */
async function leaveAClass(api: TestApi): Promise<string> {
  const visitor = newVisitor();
  expect((await postForm(api.url, 'From the last class')).status).toBe(201);
  expect((await fetch(`${api.url}/api/beacon`, { method: 'POST', body: 'last class, bye' })).status).toBe(202);
  expect((await fetch(`${api.url}/api/echo?visitor=${visitor}`)).status).toBe(200);
  await pollUntil('the echo in the visitor journal', async () => (await stateOf(api, visitor)).journal.length, {
    timeoutMs: 5_000,
  });
  return visitor;
}

async function stateOf(api: TestApi, visitor: string) {
  const json = async (path: string) =>
    (await (await fetch(`${api.url}${path}`, { headers: { Accept: 'application/json' } })).json()) as any;
  return {
    titles: ((await json('/api/posts')).posts as { title: string }[]).map((post) => post.title),
    beacons: ((await json('/api/beacon')).beacons as { body: string }[]).map((beacon) => beacon.body),
    journal: ((await json(`/lab/journal?visitor=${visitor}`)).entries as { entry: { path: string } }[]).map(
      (item) => item.entry.path,
    ),
  };
}

describe('docs/classroom.md: starting the next class clean', () => {
  it("is one redis-cli command in compose's Redis service, the one the api's REDIS_URL names", () => {
    const { service } = documentedReset();
    expect(composeFile).toMatch(new RegExp(`^  ${service}:\\n    image: redis:`, 'm'));
    expect(composeFile).toContain(`REDIS_URL: redis://${service}:6379`);
  });

  it('a restart of the api keeps the posts, beacons and journals: they are in Redis', async () => {
    const before = await composeApi();
    const visitor = await leaveAClass(before);
    await before.stop();
    const after = await composeApi();
    try {
      expect(await stateOf(after, visitor)).toEqual({
        titles: expect.arrayContaining(['From the last class']),
        beacons: ['last class, bye'],
        journal: ['/api/echo'],
      });
    } finally {
      await after.stop();
    }
  });

  it('the documented command leaves what a new server starts with, and the running api needs no restart', async () => {
    const api = await composeApi();
    const fresh = await startApi();
    try {
      const visitor = await leaveAClass(api);
      const { cliArgs } = documentedReset();
      await promisify(execFile)(redisCli, ['-p', String(redis.server.port), ...cliArgs], { timeout: 5_000 });
      const newServer = await stateOf(fresh, newVisitor());
      expect(newServer.beacons).toEqual([]);
      expect(await stateOf(api, visitor)).toEqual({ titles: newServer.titles, beacons: [], journal: [] });
      expect(newServer.titles).not.toContain('From the last class');
    } finally {
      await Promise.all([api.stop(), fresh.stop()]);
    }
  });
});

// Caddy is required on CI; elsewhere this is skipped with the reason printed by vitest.
const caddyMissing = !findCaddy() && !process.env.CI;

describe.skipIf(caddyMissing)('docs/classroom.md: the check that the server is ready', () => {
  it('prints ready while both names answer over TLS with the pages, the api and Redis; exits 22 naming the 503 once Redis is down', async () => {
    const [check = ''] = commandsUnder(classroom, 'Before class: a checklist');
    expect(check).toMatch(/^curl .* && echo ready$/);
    // `npm start -- --tls`: the repository's Caddyfile in front, here with its state in Redis as compose keeps it.
    const started = spawnWatched(process.execPath, ['launcher/dist/start.js', '--tls'], {
      cwd: fileURLToPath(root),
      env: { ...process.env, PORT: '0', HTTPS_PORT: '0', HTTP_PORT: '0', REDIS_URL: redis.server.url },
    });
    try {
      await started.waitFor(/Ctrl-C stops/, 25_000, 'npm start -- --tls printing its URLs');
      const [a, b] = [...started.output().matchAll(/^ {2}(https:\/\/[a-z.]+:\d+)\/$/gm)].map((match) => match[1]!);
      const caCert = /^ {2}(\/\S+root\.crt)$/m.exec(started.output())![1]!;
      // The documented names become this run's; its CA is trusted as the checklist says for local names.
      const line = check
        .replaceAll('https://lab-a.school.example', a!)
        .replaceAll('https://lab-b.school.example', b!)
        .replace(/^curl /, `curl --cacert ${caCert} `);
      expect(line).not.toContain('school.example');
      expect((await promisify(exec)(line, { timeout: 10_000 })).stdout).toBe('ready\n');

      await redis.server.shutDown();
      const failed = (await promisify(exec)(line, { timeout: 10_000 }).catch((err: unknown) => err)) as {
        code?: number;
        stdout?: string;
        stderr?: string;
      };
      expect(failed).toMatchObject({ code: 22, stdout: '' });
      expect(failed.stderr).toMatch(/returned error: 503/);
    } finally {
      await started.stop(5_000);
      await redis.server.startAgain();
    }
  });
});
