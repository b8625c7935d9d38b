import type { ChildProcess } from 'node:child_process';
import { pollUntil } from '@origin-lab/test-kit';
import { stackEnvName, type StackName } from './stack.js';

/**
 * Resolves once url answers with any HTTP status; rejects after timeoutMs, or at once when the
 * process that should serve it exits.
 */
export async function waitForHttp(
  url: string,
  timeoutMs: number,
  what: string,
  child?: ChildProcess,
  init?: RequestInit,
): Promise<void> {
  await pollUntil(
    `${what} to answer ${url}`,
    async () => {
      if (child && (child.exitCode !== null || child.signalCode !== null))
        throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}) before answering ${url}`);
      try {
        const response = await fetch(url, { ...init, signal: AbortSignal.timeout(2_000) });
        await response.arrayBuffer();
        return 'answered';
      } catch (err) {
        return String((err as Error).cause ?? err);
      }
    },
    { timeoutMs, intervalMs: 200, done: (result) => result === 'answered' },
  );
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
