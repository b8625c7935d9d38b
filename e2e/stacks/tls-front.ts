import type { ChildProcess } from 'node:child_process';
import { stackEnvName, type StackName } from './stack.js';

/**
 * Resolves once url answers with any HTTP status; rejects after timeoutMs, or at once when the
 * process that should serve it exits.
 */
export async function waitForHttp(url: string, timeoutMs: number, what: string, child?: ChildProcess, init?: RequestInit): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no attempt';
  while (Date.now() < deadline) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}) before answering ${url}`);
    try {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      return;
    } catch (err) {
      last = String((err as Error).cause ?? err);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what} did not answer ${url} within ${timeoutMs} ms (last: ${last})`);
}

/**
 * Calls attempt every 250 ms until done(result) holds, and resolves with that result; after
 * timeoutMs rejects with the last result, so the error says what was seen.
 */
export async function pollUntil<T>(attempt: () => Promise<T>, done: (result: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await attempt();
    if (done(result)) return result;
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms (last: ${JSON.stringify(result)})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * The TLS stacks also serve both names over plain HTTP/1.1 (the Caddyfile's http:// sites).
 * Only the front specs use those origins, so they travel beside the shared StackInfo.
 */
export function publishPlainOrigins(stack: StackName, origins: [string, string]): void {
  process.env[`${stackEnvName(stack)}_HTTP`] = JSON.stringify(origins);
}

export function plainOrigins(stack: StackName): [string, string] {
  const raw = process.env[`${stackEnvName(stack)}_HTTP`];
  if (!raw) throw new Error(`stack ${stack} published no plain-HTTP origins`);
  return JSON.parse(raw) as [string, string];
}
