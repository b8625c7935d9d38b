import { readFileSync } from 'node:fs';
import http from 'node:http';
import { networkInterfaces } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnWatched, type WatchedProcess } from '@origin-lab/test-kit';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const children: WatchedProcess[] = [];
afterEach(() => {
  for (const { child } of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** `npm start`'s program, its output kept. */
function launch(env: Record<string, string>, args: string[] = []): WatchedProcess {
  const launched = spawnWatched(process.execPath, ['launcher/dist/start.js', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
  });
  children.push(launched);
  return launched;
}

/** Runs `npm start`'s program on a free port and waits for the URLs it prints. */
async function start(env: Record<string, string> = {}): Promise<WatchedProcess & { port: number }> {
  const launched = launch({ PORT: '0', LOG_REQUESTS: 'false', ...env });
  const match = await launched.waitFor(/http:\/\/localhost:(\d+)\//, 15_000, 'npm start printing its URLs');
  return { ...launched, port: Number(match[1]) };
}

describe('npm start (the embedded default)', () => {
  it("prints both origins; pages and /api/ answer on each, and each is on the other's allowlist", async () => {
    const { child, port, output, exitWithin } = await start();
    expect(output()).toContain(`http://127.0.0.1:${port}/`);
    const origins = [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
    for (const [self, other] of [origins, [...origins].reverse()]) {
      const page = await fetch(`${self}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      const api = await fetch(`${self}/api/posts`, { headers: { Origin: other! } });
      expect(api.status).toBe(200);
      expect(api.headers.get('access-control-allow-origin')).toBe(other);
    }
    child.kill('SIGTERM');
    expect(await exitWithin(5_000)).toBe(0);
  });

  it('SIGTERM ends open streams and slow requests finish; the process exits cleanly', async () => {
    const { child, port, exitWithin } = await start();
    const streamEnded = new Promise<string>((resolve, reject) => {
      http
        .get(`http://127.0.0.1:${port}/api/stream?count=100`, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve(text));
          res.on('error', reject);
          res.once('data', () => child.kill('SIGTERM'));
        })
        .on('error', reject);
    });
    const text = await streamEnded;
    expect(text).toContain('event: tick');
    expect(text).not.toContain('"n":100');
    expect(await exitWithin(5_000)).toBe(0);
  });

  it('a taken port gives a clear message and exit code 2', async () => {
    const blocker = http.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const launched = launch({ PORT: String(port) });
      expect(await launched.exitWithin(10_000)).toBe(2);
      expect(launched.stderr()).toContain(`port ${port} is taken`);
    } finally {
      blocker.close();
    }
  });

  // Ports below the kernel's unprivileged start (1024 unless a container lowered it) are root's.
  const privileged = Number(readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8')) > 81;
  it.skipIf(!privileged)('a port below 1024, for a user without privileges: one line naming PORT, exit 2', async () => {
    // Run as nobody where the tests run as root (CI), as a newcomer's own user would run it.
    const program = [process.execPath, 'launcher/dist/start.js'];
    const command =
      process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', ...program] : program;
    const launched = spawnWatched(command[0]!, command.slice(1), {
      cwd: repoRoot,
      env: { ...process.env, PORT: '81' },
    });
    children.push(launched);
    expect(await launched.exitWithin(10_000)).toBe(2);
    expect(launched.stderr().trim()).toBe(
      'port 81 needs privileges this user lacks (ports below 1024 do): start with another, e.g. PORT=8081 npm start',
    );
  });

  it('a HOST that is no address of this machine: one line naming HOST, exit code 2', async () => {
    const launched = launch({ PORT: '0', HOST: '192.0.2.1' });
    expect(await launched.exitWithin(10_000)).toBe(2);
    expect(launched.stderr().trim()).toBe(
      'HOST=192.0.2.1 is not an address of this machine: leave HOST unset to listen on every one',
    );
  });

  it('a HOST that does not resolve: one line naming HOST, exit code 2', async () => {
    const launched = launch({ PORT: '0', HOST: 'no-such-host.invalid' });
    expect(await launched.exitWithin(15_000)).toBe(2);
    expect(launched.stderr().trim()).toBe(
      'HOST=no-such-host.invalid does not resolve: give an address of this machine, or leave HOST unset',
    );
  });

  // A machine without IPv6's loopback cannot listen there at all.
  const ipv6Loopback = Object.values(networkInterfaces()).some((addresses) =>
    addresses?.some((address) => address.address === '::1'),
  );
  it.skipIf(!ipv6Loopback)(
    'HOST=::1: says that the 127.0.0.1 address will not answer, and how to have both',
    async () => {
      const launched = launch({ PORT: '0', HOST: '::1', LOG_REQUESTS: 'false' });
      const port = (await launched.waitFor(/http:\/\/localhost:(\d+)\//, 15_000, 'npm start printing its URLs'))[1];
      await launched.waitFor(/Ctrl-C stops/, 5_000, 'the rest of the start lines');
      const note = `HOST=::1 listens on IPv6 only, so http://127.0.0.1:${port}/ does not answer: use HOST=127.0.0.1 or leave HOST unset.`;
      // Said once.
      expect(launched.output().split(note)).toHaveLength(2);
      launched.child.kill('SIGTERM');
      expect(await launched.exitWithin(5_000)).toBe(0);
    },
  );

  it('a folder without pages (PAGES_ROOT): one line saying so before anything starts, exit code 2', async () => {
    const launched = launch({ PORT: '0', PAGES_ROOT: '/nonexistent' });
    expect(await launched.exitWithin(10_000)).toBe(2);
    expect(launched.stderr().trim()).toMatch(/^configuration error: PAGES_ROOT=\/nonexistent holds no index\.html/);
  });

  it('npm start --tls, without --: npm keeps the option, so the start stops saying how to write it', async () => {
    const launched = launch({ PORT: '0', npm_config_tls: 'true' });
    expect(await launched.exitWithin(10_000)).toBe(2);
    expect(launched.stderr()).toContain('npm took --tls for itself: write npm start -- --tls');
  });

  it('a bad setting gives a clear message naming the variable and exit code 2', async () => {
    const launched = launch({ PORT: '0', FLAKY_RATE: 'often' });
    expect(await launched.exitWithin(10_000)).toBe(2);
    expect(launched.stderr()).toContain('FLAKY_RATE');
  });

  it('--tls without Caddy says how to get it and exits 2', async () => {
    const launched = launch({ PORT: '0', CADDY_PATH: '/nonexistent/caddy' }, ['--tls']);
    expect(await launched.exitWithin(10_000)).toBe(2);
    expect(launched.stderr()).toContain('apt-get install caddy (or set CADDY_PATH)');
  });

  it('SITE_A and SITE_B without --tls: prints the two plain-HTTP addresses for a class; each name is allowed and paired', async () => {
    const names = ['lab-a.school.test', 'lab-b.school.test'];
    const launched = launch({ PORT: '0', LOG_REQUESTS: 'false', SITE_A: names[0]!, SITE_B: names[1]! });
    const match = await launched.waitFor(
      /http:\/\/lab-a\.school\.test:(\d+)\//,
      15_000,
      'npm start printing the class addresses',
    );
    const port = match[1]!;
    const origins = names.map((name) => `http://${name}:${port}`);
    expect(launched.output()).toContain(`${origins[1]}/`);
    expect(launched.output()).toMatch(/not a secure context/);
    // Nothing resolves these names here: the requests go to 127.0.0.1 with the name in Host.
    for (const [self, other] of [origins, [...origins].reverse()]) {
      const answer = await fetch(`http://127.0.0.1:${port}/api/posts`, {
        headers: { Host: new URL(self!).host, Origin: other! },
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('access-control-allow-origin')).toBe(other);
    }
    const siteConfig = await (await fetch(`http://127.0.0.1:${port}/site-config.js`)).text();
    expect(siteConfig).toContain(JSON.stringify(names));
    // No SITE_C: c.localhost would be each student's own machine, so no third origin.
    expect(siteConfig).toContain('"third":null');
    launched.child.kill('SIGTERM');
    expect(await launched.exitWithin(5_000)).toBe(0);
  });

  it.each([
    [{ SITE_A: 'lab-a.school.test' }, 'set both SITE_A and SITE_B'],
    [{ SITE_A: 'http://lab-a.school.test', SITE_B: 'lab-b.school.test' }, 'SITE_A must be a host name'],
    [{ SITE_A: 'lab-a.school.test', SITE_B: 'lab-b.school.test:8080' }, 'SITE_B must be a host name'],
    [{ SITE_A: 'lab.school.test', SITE_B: 'LAB.school.test' }, 'two different names'],
    [
      { SITE_A: 'lab-a.school.test', SITE_B: 'lab-b.school.test', SITE_C: 'lab-c.school.test/' },
      'SITE_C must be a host name',
    ],
  ])('bad site names %j stop the start with a message naming them (exit 2)', async (names, message) => {
    const launched = launch({ PORT: '0', ...names });
    expect(await launched.exitWithin(10_000)).toBe(2);
    expect(launched.stderr()).toContain(message);
  });
});
