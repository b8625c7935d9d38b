import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/flaky/seeded-random.js';
import { fuzzRequest, type FuzzRequest } from './fuzz-requests.js';
import { rawExchange, type RawAnswer } from '@origin-lab/test-kit';
import { SEED, hardenedApiForFile, inParallel } from './harness.js';

/** How many random requests one run sends; FUZZ_REQUESTS changes it. */
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3_000);

/** The 5xx answers SPEC.md names: a form that cannot be parsed, and /api/flaky failing on purpose. */
function specified5xx(request: FuzzRequest, path: string, status: number): boolean {
  if (status !== 500) return false;
  if (path === '/api/posts' && request.method === 'POST') return true;
  return path === '/api/flaky';
}

/** Statuses Node's own HTTP parser answers with before the app sees a malformed request. */
const PARSER_STATUSES = new Set([400, 413, 414, 417, 431, 501, 505]);

function problemsOf(request: FuzzRequest, answer: RawAnswer): string[] {
  // A client that half-closes has left (Node aborts its request): a stream already under way is
  // cut off there, so only the framing of complete exchanges is checked.
  const problems = request.truncated
    ? answer.framingProblems.filter((problem) => !problem.startsWith('chunked body ends'))
    : [...answer.framingProblems];
  const path = request.target.split('?')[0]!;
  if (!answer.answered) {
    if (!request.truncated) problems.push('closed without an answer');
    return problems;
  }
  const header = (name: string) => answer.headers.get(name)?.join(', ');
  const fromApp = /\bOrigin\b/.test(header('vary') ?? '');
  if (!fromApp) {
    // Only the HTTP parser answers without Vary: Origin, and only to a request it could not read.
    if (!PARSER_STATUSES.has(answer.status)) problems.push(`status ${answer.status} without Vary: Origin`);
    return problems;
  }
  if (answer.status >= 500 && !specified5xx(request, path, answer.status)) problems.push(`unexpected ${answer.status}`);
  const type = header('content-type') ?? '';
  if (/^application\/json/.test(type) && answer.body.length > 0 && path !== '/api/bad-json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.body.toString('utf8'));
    } catch {
      problems.push(`JSON body does not parse: ${answer.body.subarray(0, 80).toString('utf8')}`);
    }
    if (answer.status >= 400 && parsed !== undefined && typeof (parsed as { error?: unknown }).error !== 'string') {
      problems.push(`error answer without an error string: ${answer.body.subarray(0, 80).toString('utf8')}`);
    }
  }
  if (answer.status >= 400 && answer.body.length > 0 && !/^application\/json/.test(type)) {
    const notProxied =
      answer.status === 404 && path.startsWith('/api/upstream') && answer.body.toString() === 'Not proxied';
    if (!notProxied) problems.push(`error answer of type "${type}": ${answer.body.subarray(0, 80).toString('utf8')}`);
  }
  if (answer.status === 200 && path === '/api/stream' && request.method === 'GET' && !request.truncated) {
    const text = answer.body.toString('utf8');
    if (!/event: done\ndata: \{\}\n\n$/.test(text)) problems.push('stream did not end with the done record');
  }
  return problems;
}

const api = hardenedApiForFile(
  // Short waits so thousands of requests fit in seconds; the rules are the same.
  { streamIntervalMs: 1, slowMs: { min: 0, max: 50, default: 10 }, logRequests: true },
  { upstreamTimeoutMs: 2_000, keepLogs: 100_000 },
);

describe(`fuzz: ${REQUESTS} seeded random requests (seed ${SEED})`, () => {
  it('never crash, never answer 5xx except where the spec says, and every answer is well-formed', async () => {
    const random = seededRandom(SEED);
    const requests = Array.from({ length: REQUESTS }, () => fuzzRequest(random));
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    await inParallel(requests, 16, async (request, index) => {
      let answer: RawAnswer;
      try {
        answer = await rawExchange(api.port, request.bytes, {
          timeoutMs: 10_000,
          method: request.method,
          halfClose: request.truncated,
        });
      } catch (err) {
        failures.push(`#${index} ${(err as Error).message}: ${request.description}`);
        return;
      }
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      for (const problem of problemsOf(request, answer)) failures.push(`#${index} ${problem}: ${request.description}`);
    });
    expect(failures.slice(0, 15), `${failures.length} problems (replay with HARDENING_SEED=${SEED})`).toEqual([]);
    // The fuzz reached the handlers, not only the parser.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(REQUESTS / 10);

    // Still alive and well afterwards.
    const res = await fetch(`${api.url}/api/echo?after=fuzz`);
    expect(res.status).toBe(200);
    // No handler threw something it did not mean to (those are logged as 'handler failed').
    expect(api.logs.filter((entry) => entry.msg === 'handler failed')).toEqual([]);
    // Credentials never reach the request log.
    for (const entry of api.logs) {
      const headers = entry.headers as Record<string, unknown> | undefined;
      for (const name of ['authorization', 'cookie'])
        if (headers?.[name] !== undefined) expect(headers[name]).toBe('[redacted]');
    }
  }, 90_000);
});
