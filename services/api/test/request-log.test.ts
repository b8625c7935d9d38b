import { describe, expect, it } from 'vitest';
import { apiForFile } from './start-api.js';

const api = apiForFile();
const limited = apiForFile({ logRequestLinesPerSecond: 2 });
const quiet = apiForFile({ logRequests: false });
const REQUESTS = 20;

describe('request log', () => {
  it('writes one structured line per request, with Authorization and Cookie values redacted', async () => {
    await fetch(`${api.url}/api/echo?log=1`, {
      headers: { Authorization: 'Bearer secret-token-123', Cookie: 'session=secret-cookie-456', 'X-Visible': 'shown' },
    });
    await expect.poll(() => api.logs.filter((line) => line.url === '/api/echo?log=1')).toHaveLength(1);
    const line = api.logs.find((entry) => entry.url === '/api/echo?log=1')!;
    expect(line).toMatchObject({ msg: 'request', method: 'GET', status: 200, completed: true });
    expect(line.headers).toMatchObject({ authorization: '[redacted]', cookie: '[redacted]', 'x-visible': 'shown' });
    const everything = JSON.stringify(api.logs);
    expect(everything).not.toContain('secret-token-123');
    expect(everything).not.toContain('secret-cookie-456');
  });

  it('logs a streamed answer when it ends, with its status', async () => {
    await (await fetch(`${api.url}/api/stream?count=2`)).text();
    await expect
      .poll(() => api.logs.find((line) => line.url === '/api/stream?count=2'))
      .toMatchObject({ status: 200, completed: true });
  });

  it('writes at most LOG_REQUEST_LINES_PER_SECOND lines a second and counts the rest in a warning', async () => {
    // Sequential on one connection: 20 requests take milliseconds, so most of them share a second.
    for (let i = 0; i < REQUESTS; i++) await (await fetch(`${limited.url}/api/echo?limited=${i}`)).text();
    const written = () => limited.logs.filter((line) => line.msg === 'request');
    const counts = () => limited.logs.filter((line) => line.msg === 'request lines not written');
    const notWritten = () => counts().reduce((sum, line) => sum + (line.notWritten as number), 0);
    // The count of a second comes once that second is over.
    await expect.poll(() => written().length + notWritten(), { timeout: 5_000 }).toBe(REQUESTS);
    expect(notWritten()).toBeGreaterThan(0);
    for (const count of counts())
      expect(count).toMatchObject({ level: 'warn', linesPerSecond: 2, setting: 'LOG_REQUEST_LINES_PER_SECOND' });
    // Every request either has its line or is counted: the lines are of distinct requests.
    expect(new Set(written().map((line) => line.url)).size).toBe(written().length);
  });

  it('writes no request line with LOG_REQUESTS=false', async () => {
    // The line is written when the answer has been handed to the connection, so before fetch reads it.
    for (const path of ['/api/echo?quiet=1', '/api/stream?count=1', '/api/nothing-here'])
      await (await fetch(`${quiet.url}${path}`)).text();
    expect(quiet.logs.filter((line) => line.msg === 'request')).toEqual([]);
  });
});
