import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeScript, startRedis, type RunningRedis, type StartedProcess } from '@origin-lab/test-kit';
import type { JournalPage } from '@origin-lab/contract';
import { findCaddy, httpsAnswer, startReplicaFront, type ReplicaFront } from '../src/caddy.js';

// The repository's Caddyfile in front of two api processes sharing Redis (its `list` mode: the
// addresses in API_UPSTREAM, health-checked): one replica stops while requests flow, and none of
// them fails, because Caddy takes it out and sends what could go elsewhere elsewhere.
const apiMain = fileURLToPath(new URL('../../services/api/dist/main.js', import.meta.url));
const haveCaddy = findCaddy() !== undefined;

describe.skipIf(!haveCaddy && !process.env.CI)('api replicas behind Caddy', () => {
  let redis: RunningRedis;
  const replicas: StartedProcess[] = [];
  let caddy: ReplicaFront;
  let httpsPort: number;

  beforeAll(async () => {
    redis = await startRedis();
    for (const name of ['replica-1', 'replica-2']) {
      replicas.push(
        await startNodeScript(apiMain, {
          env: {
            ...process.env,
            PORT: '0',
            HOST: '127.0.0.1',
            REDIS_URL: redis.url,
            REPLICA_NAME: name,
            LOG_REQUESTS: 'false',
          },
          ready: /"msg":"api listening","port":(\d+)/,
          timeoutMs: 15_000,
          what: `api ${name}`,
        }),
      );
    }
    caddy = await startReplicaFront(
      replicas.map((replica) => `127.0.0.1:${replica.ready[1]}`),
      { searchPath: process.env.PATH ?? '' },
    );
    httpsPort = caddy.httpsPort;
  }, 60_000);

  afterAll(async () => {
    await caddy?.stop();
    await Promise.all(replicas.map((replica) => replica.stop()));
    await redis?.stop();
  });

  it('a replica that stops is taken out without failing a request', async () => {
    const visitor = 'replica-front-visitor-0001';
    const statuses: (number | string)[] = [];
    for (let i = 0; i < 60; i++) {
      if (i === 20) await replicas[1]!.stop();
      statuses.push(await httpsAnswer('a.localhost', httpsPort, `/api/posts?visitor=${visitor}`, caddy.caCert));
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    // Both replicas answered before the stop (the journal, shared, says which answered what).
    const journal = (await (
      await fetch(`http://127.0.0.1:${replicas[0]!.ready[1]}/lab/journal?visitor=${visitor}`, {
        headers: { Accept: 'application/json' },
      })
    ).json()) as JournalPage;
    const answeredBy = journal.entries.map((stored) => stored.entry.replica);
    expect(answeredBy).toHaveLength(60);
    expect(new Set(answeredBy.slice(0, 20))).toEqual(new Set(['replica-1', 'replica-2']));
    expect(new Set(answeredBy.slice(20))).toEqual(new Set(['replica-1']));
  }, 60_000);
});
