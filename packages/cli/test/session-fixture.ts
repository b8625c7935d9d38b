/**
 * A signed-in API over https, for `check --session`: express with cors({ origin: true,
 * credentials: true }) (every origin read with credentials), a certificate from a certificate
 * authority of this test alone (handed to the check as --ca), and /me that answers
 * who is signed in when the session cookie comes with the request, else 401.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import cors from 'cors';
import express from 'express';
import { localAuthority } from '@origin-lab/server-kit/local-authority';

export interface SessionServer {
  /** https://localhost:<port>/me */
  url: string;
  /** The authority's certificate (PEM file): --ca for the check. */
  caFile: string;
  /** The session cookie's name and value (the value: what no output may hold). */
  sid: { name: string; value: string };
  /** A folder for the test's files, removed by stop(). */
  dir: string;
  stop(): Promise<void>;
}

export async function sessionServer(): Promise<SessionServer> {
  const dir = mkdtempSync(join(tmpdir(), 'origin-lab-session-'));
  // An authority of the test's own, and a certificate it signs for localhost and 127.0.0.1.
  const {
    caPem,
    keyPem: key,
    certPem: cert,
  } = localAuthority('origin-lab check session test CA', ['localhost', '127.0.0.1']);
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, caPem);
  const sid = { name: 'sid', value: `s3cr3t-${randomBytes(12).toString('hex')}` };
  const app = express();
  app.use(cors({ origin: true, credentials: true }));
  app.get('/me', (req, res) => {
    const signedIn = (req.get('cookie') ?? '').split(/;\s*/).includes(`${sid.name}=${sid.value}`);
    if (signedIn) res.json({ me: 'ada', email: 'ada@example.test', plan: 'team' });
    else res.status(401).json({ error: 'sign in' });
  });
  const server = createServer({ key, cert }, app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://localhost:${port}/me`,
    caFile,
    sid,
    dir,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}
