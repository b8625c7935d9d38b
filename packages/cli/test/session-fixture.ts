/**
 * A signed-in API over https, for `check --session`: express with cors({ origin: true,
 * credentials: true }) (every origin read with credentials), a certificate from a certificate
 * authority of this test alone (handed to the check as --ca), and /me that answers
 * who is signed in when the session cookie comes with the request, else 401.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import cors from 'cors';
import express from 'express';
import forge from 'node-forge';

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

const validity = (cert: forge.pki.Certificate) => {
  cert.validity.notBefore = new Date(Date.now() - 3_600_000);
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
};

/** An authority, and a certificate it signs for localhost and 127.0.0.1. */
function certificates() {
  const pem = () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return {
      key: forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()),
      pub: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
      keyPem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    };
  };
  const caKeys = pem();
  const ca = forge.pki.createCertificate();
  ca.publicKey = caKeys.pub;
  ca.serialNumber = '01';
  validity(ca);
  const caName = [{ name: 'commonName', value: 'origin-lab check session test CA' }];
  ca.setSubject(caName);
  ca.setIssuer(caName);
  ca.setExtensions([
    { name: 'basicConstraints', cA: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true },
  ]);
  ca.sign(caKeys.key, forge.md.sha256.create());
  const leafKeys = pem();
  const leaf = forge.pki.createCertificate();
  leaf.publicKey = leafKeys.pub;
  leaf.serialNumber = '02';
  validity(leaf);
  leaf.setSubject([{ name: 'commonName', value: 'localhost' }]);
  leaf.setIssuer(caName);
  leaf.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
      ],
    },
  ]);
  leaf.sign(caKeys.key, forge.md.sha256.create());
  return { caPem: forge.pki.certificateToPem(ca), key: leafKeys.keyPem, cert: forge.pki.certificateToPem(leaf) };
}

export async function sessionServer(): Promise<SessionServer> {
  const dir = mkdtempSync(join(tmpdir(), 'origin-lab-session-'));
  const { caPem, key, cert } = certificates();
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
