import { describe, expect, it } from 'vitest';
import { apiForFile } from './start-api.js';

const api = apiForFile();

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
});
