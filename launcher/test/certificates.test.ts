import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@origin-lab/server-kit';
import { pollUntil, spawnWatched, type WatchedProcess } from '@origin-lab/test-kit';
import { findCaddy, repoCaddyfile } from '../src/caddy.js';

/**
 * The repository's Caddyfile, unedited, picks the issuer by the name: a local name gets a
 * certificate from Caddy's own CA, a public name one from the ACME CA in ACME_CA, with the
 * account under ACME_EMAIL. Pebble (Let's Encrypt's ACME test server, Debian package `pebble`)
 * stands in for Let's Encrypt, told to accept every challenge: nothing here can reach the
 * internet, and the name does not point at this machine.
 */
const PUBLIC_NAME = 'classroom.example.com';
const LOCAL_NAME = 'a.localhost';
const EMAIL = 'teacher@school.example';

const haveTools = Boolean(findCaddy()) && existsSync('/usr/bin/pebble') && existsSync('/usr/bin/openssl');

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The issuer's common name of the certificate served for name on 127.0.0.1:port (null while there is none). */
function issuerOf(name: string, port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername: name, rejectUnauthorized: false });
    socket.once('secureConnect', () => {
      const issuer = socket.getPeerCertificate().issuer?.CN;
      socket.end();
      resolve(typeof issuer === 'string' ? issuer : null);
    });
    socket.once('error', () => resolve(null));
    // A stalled handshake: destroyed without an error, so only 'close' says it is over.
    socket.once('close', () => resolve(null));
    socket.setTimeout(2_000, () => socket.destroy());
  });
}

describe.skipIf(!haveTools && !process.env.CI)('certificates: one Caddyfile for local and public names', () => {
  let dir: string;
  let pebble: WatchedProcess;
  let caddy: WatchedProcess;
  let httpsPort: number;
  let acmeDirectory: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'origin-lab-acme-'));
    // Pebble serves its ACME API over HTTPS; Caddy trusts this certificate through SSL_CERT_FILE.
    execFileSync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      join(dir, 'pebble-key.pem'),
      '-out',
      join(dir, 'pebble-cert.pem'),
    ]);
    const [acmePort, managementPort, challengePort, alpnPort, httpPort] = await Promise.all(
      Array.from({ length: 5 }, () => freePort()),
    );
    httpsPort = await freePort();
    acmeDirectory = `https://127.0.0.1:${acmePort}/dir`;
    writeFileSync(
      join(dir, 'pebble.json'),
      JSON.stringify({
        pebble: {
          listenAddress: `127.0.0.1:${acmePort}`,
          managementListenAddress: `127.0.0.1:${managementPort}`,
          certificate: join(dir, 'pebble-cert.pem'),
          privateKey: join(dir, 'pebble-key.pem'),
          httpPort: challengePort,
          tlsPort: alpnPort,
          ocspResponderURL: '',
          externalAccountBindingRequired: false,
        },
      }),
    );
    pebble = spawnWatched('pebble', ['-config', join(dir, 'pebble.json')], {
      env: { ...process.env, PEBBLE_VA_ALWAYS_VALID: '1', PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0' },
    });
    await pebble.waitFor(/Listening on/, 10_000, 'pebble listening');

    caddy = spawnWatched(findCaddy() ?? 'caddy', ['run', '--config', repoCaddyfile, '--adapter', 'caddyfile'], {
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        XDG_DATA_HOME: join(dir, 'data'),
        XDG_CONFIG_HOME: join(dir, 'config'),
        SSL_CERT_FILE: join(dir, 'pebble-cert.pem'),
        SITE_A: LOCAL_NAME,
        SITE_B: PUBLIC_NAME,
        HTTPS_PORT: String(httpsPort),
        HTTP_PORT: String(httpPort),
        ACME_CA: acmeDirectory,
        ACME_EMAIL: EMAIL,
        // Nothing answers behind Caddy: only its certificates are looked at.
        API_UPSTREAM: '127.0.0.1:9',
        PAGES_UPSTREAM: '127.0.0.1:9',
      },
    });
  }, 30_000);

  afterAll(async () => {
    await caddy?.stop();
    await pebble?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const waitForIssuer = (name: string, expected: RegExp) =>
    pollUntil(`a certificate for ${name} issued by ${expected}`, () => issuerOf(name, httpsPort), {
      timeoutMs: 30_000,
      intervalMs: 250,
      done: (issuer) => issuer !== null && expected.test(issuer),
    }).catch((err: Error) => {
      throw new Error(`${err.message}\ncaddy:\n${caddy.output().slice(-4_000)}`);
    });

  it('a local name gets its certificate from Caddy’s local CA', async () => {
    expect(await waitForIssuer(LOCAL_NAME, /^Caddy Local Authority/)).toMatch(/^Caddy Local Authority/);
  });

  it('a public name gets its certificate from the ACME CA, with an account under ACME_EMAIL', async () => {
    expect(await waitForIssuer(PUBLIC_NAME, /^Pebble/)).toMatch(/^Pebble Intermediate CA/);
    // Caddy keeps each ACME account under the CA's host and the account's email.
    const accounts = join(dir, 'data', 'caddy', 'acme', `127.0.0.1-${new URL(acmeDirectory).port}-dir`, 'users');
    expect(readdirSync(accounts)).toEqual([EMAIL]);
  });

  it('npm start -- --tls with a public name prints both addresses at once, then reports the certificate as Caddy gets it', async () => {
    const name = 'second.example.com';
    const port = await freePort();
    const launched = spawnWatched(process.execPath, ['launcher/dist/start.js', '--tls'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: '0',
        HTTPS_PORT: String(port),
        HTTP_PORT: '0',
        SITE_A: LOCAL_NAME,
        SITE_B: name,
        ACME_CA: acmeDirectory,
        ACME_EMAIL: EMAIL,
        SSL_CERT_FILE: join(dir, 'pebble-cert.pem'),
        CADDY_DATA_DIR: join(dir, 'launcher-data'),
        LOG_REQUESTS: 'false',
      },
    });
    try {
      await launched.waitFor(/Ctrl-C stops/, 25_000, 'npm start -- --tls printing its addresses');
      const printed = launched.output();
      expect(printed).toContain(`https://${LOCAL_NAME}:${port}/`);
      expect(printed).toContain(`https://${name}:${port}/`);
      expect(printed).toContain(`Certificates for ${name} come from ${acmeDirectory}`);
      // The local name's CA is printed for trusting; the public name needs none.
      expect(printed).toMatch(/root\.crt/);
      await launched.waitFor(
        new RegExp(`caddy: ${name.replaceAll('.', '\\.')}: certificate obtained`),
        30_000,
        'the certificate reported',
      );
      // Caddy says "obtained" as it stores the certificate; under load its first handshakes can come a moment later.
      const issuer = await pollUntil(
        `a TLS handshake for ${name} with the ACME CA's certificate`,
        () => issuerOf(name, port),
        {
          timeoutMs: 10_000,
          done: (found) => found !== null && /^Pebble/.test(found),
        },
      );
      expect(issuer).toMatch(/^Pebble Intermediate CA/);
    } finally {
      await launched.stop();
    }
  }, 70_000);
});
