import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HostPair } from '@origin-lab/contract';
import { DEFAULT_THIRD_SITE, freePort } from '@origin-lab/server-kit';
import { http2SchedulerWarning, httpsAnswer, originOf } from '@origin-lab/launcher/caddy';
import { pollUntil } from '@origin-lab/test-kit';
import { publishPlainOrigins } from './tls-front.js';
import type { Stack } from './stack.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const sites: HostPair = ['a.localhost', 'b.localhost'];
/** Two api replicas on Redis, as `docker compose up --scale api=2` runs them: the whole suite passes through both. */
const apiReplicas = 2;

/** Compose v1 (Debian's docker-compose); COMPOSE_EXECUTABLE names another. */
export const composeExecutable = process.env.COMPOSE_EXECUTABLE ?? 'docker-compose';

/** Bounds on the slow steps; a build from nothing (npm ci in the image) takes a few minutes. */
const buildTimeoutMs = Number(process.env.E2E_COMPOSE_BUILD_TIMEOUT_MS ?? 15 * 60_000);
const upTimeoutMs = Number(process.env.E2E_COMPOSE_UP_TIMEOUT_MS ?? 3 * 60_000);
const downTimeoutMs = 60_000;

/**
 * The docker compose set exactly as a workshop runs it (docker-compose.yml, the root
 * Dockerfile, Caddy in the caddy:2 image, Redis), with two api replicas, brought up by testcontainers on free host ports
 * under a project name of its own, and taken down with its volumes by stop().
 */
export async function startComposeStack(): Promise<Stack> {
  // No reaper image can be pulled here; stop() does the cleanup. Published ports are on loopback.
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
  process.env.TESTCONTAINERS_HOST_OVERRIDE ??= '127.0.0.1';
  const { DockerComposeEnvironment, Wait } = await import('testcontainers');

  const [httpsPort, httpPort, ...rebindPorts] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const project = `originlabe2e${randomBytes(4).toString('hex')}`;
  const environment: Record<string, string> = {
    HTTPS_PORT: String(httpsPort),
    HTTP_PORT: String(httpPort),
    BIND_ADDRESS: '127.0.0.1',
    ALLOWED_ORIGINS: sites
      .flatMap((site) => [originOf('https', site, httpsPort), originOf('http', site, httpPort)])
      .join(','),
    UPSTREAM_API_KEY: randomBytes(18).toString('base64url'),
    // E2E_LOG_REQUESTS=true: every request in the kept logs (keepLogs), to follow one that hung.
    LOG_REQUESTS: process.env.E2E_LOG_REQUESTS ?? 'false',
    API_REPLICAS: String(apiReplicas),
    // The DNS rebinding lab too (its service runs on the host's network, at these loopback ports).
    COMPOSE_PROFILES: 'rebind',
    REBIND_RESOLVER_PORT: String(rebindPorts[0]),
    REBIND_OPEN_PORT: String(rebindPorts[1]),
    REBIND_CHECKED_PORT: String(rebindPorts[2]),
  };
  const scratch = mkdtempSync(join(tmpdir(), 'origin-lab-compose-'));
  const compose = (args: string[], timeoutMs: number, what: string) =>
    run(composeExecutable, ['--project-name', project, ...args], { ...process.env, ...environment }, timeoutMs, what);
  const down = async () => {
    await keepLogs(project, { ...process.env, ...environment });
    await compose(
      ['down', '--volumes', '--remove-orphans', '--timeout', '5'],
      downTimeoutMs,
      'docker-compose down',
    ).catch((err: Error) => console.error(`[e2e] compose stack: ${err.message}`));
    rmSync(scratch, { recursive: true, force: true });
  };

  try {
    // Built here rather than by `up --build`, so the build has its own bound and a clear failure.
    const started = Date.now();
    await compose(['build', '--force-rm'], buildTimeoutMs, 'docker-compose build');
    console.log(`[e2e] compose stack: images built in ${Date.now() - started} ms`);

    const caddyName = `${project}_caddy_1`;
    const upping = new DockerComposeEnvironment(repoRoot, 'docker-compose.yml')
      .withProjectName(project)
      .withEnvironment(environment)
      .withClientOptions({ executable: { standalone: true, executablePath: composeExecutable } })
      .withWaitStrategy(caddyName, Wait.forLogMessage(/serving initial configuration/))
      .withWaitStrategy(`${project}_rebind_1`, Wait.forLogMessage(/rebinding lab listening/))
      .withStartupTimeout(upTimeoutMs)
      .up();
    const running = await withTimeout(upping, upTimeoutMs + 30_000, 'docker-compose up');

    // Caddy makes its CA when it starts; the browsers and the checks below trust that root only.
    const caCert = join(scratch, 'root.crt');
    const caddy = running.getContainer(caddyName);
    const root = await pollUntil(
      "Caddy's root certificate to appear in the caddy container",
      () => caddy.exec(['cat', '/data/caddy/pki/authorities/local/root.crt']),
      {
        timeoutMs: 30_000,
        intervalMs: 250,
        done: (result) => result.exitCode === 0 && result.output.includes('BEGIN CERTIFICATE'),
      },
    );
    writeFileSync(caCert, root.output);
    // The Caddy in the image: here Debian's, whose Go decides how its HTTP/2 schedules answers.
    const buildInfo = await caddy.exec(['caddy', 'build-info']);
    const http2Defect = buildInfo.exitCode === 0 ? http2SchedulerWarning(buildInfo.output) : null;
    // Every service answers through the front before a browser is pointed at it.
    for (const [site, path] of [
      [sites[0], '/'],
      [sites[1], '/api/posts'],
    ] as const) {
      await pollUntil(
        `https://${site}:${httpsPort}${path} to answer 200`,
        () => httpsAnswer(site, httpsPort, path, caCert),
        { timeoutMs: 60_000, intervalMs: 250, done: (status) => status === 200 },
      );
    }
    publishPlainOrigins('compose', [originOf('http', sites[0], httpPort), originOf('http', sites[1], httpPort)]);
    return {
      name: 'compose',
      origins: [originOf('https', sites[0], httpsPort), originOf('https', sites[1], httpsPort)],
      third: originOf('https', DEFAULT_THIRD_SITE, httpsPort),
      caCert,
      apiReplicas,
      http2Defect,
      composeProject: project,
      stop: down,
    };
  } catch (err) {
    await down();
    throw err;
  }
}

/** Where the stack's logs are kept once it stops: a failed run's evidence, read after it. */
export const composeLogsFile = join(repoRoot, '.tmp', 'e2e-compose.log');

/** Writes every service's log, with times, to composeLogsFile (within downTimeoutMs; a failure is only said). */
function keepLogs(project: string, env: NodeJS.ProcessEnv): Promise<void> {
  mkdirSync(dirname(composeLogsFile), { recursive: true });
  const out = openSync(composeLogsFile, 'w');
  return new Promise<void>((resolve) => {
    const child = spawn(composeExecutable, ['--project-name', project, 'logs', '--no-color', '--timestamps'], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', out, out],
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), downTimeoutMs);
    const done = (problem: string | null) => {
      clearTimeout(timer);
      closeSync(out);
      if (problem) console.error(`[e2e] compose stack: its logs were not kept: ${problem}`);
      else console.log(`[e2e] compose stack: its logs are in ${composeLogsFile}`);
      resolve();
    };
    child.once('error', (err) => done(err.message));
    child.once('exit', (code) => done(code === 0 ? null : `docker-compose logs exited ${code}`));
  });
}

/** Runs a program to completion within timeoutMs (then kills it); rejects with the tail of its output. */
function run(program: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8_000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`${what}: ${err.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `${what} failed (${signal === 'SIGKILL' ? `killed after ${timeoutMs} ms` : `exit ${code}`}):\n${output}`,
          ),
        );
    });
  });
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
