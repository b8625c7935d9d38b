import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { ConfigError, freePort } from '@origin-lab/server-kit';
import { startEmbedded } from '../src/embedded.js';

describe('startEmbedded', () => {
  it('a bad setting rejects and leaves nothing listening on the port', async () => {
    const port = await freePort();
    await expect(startEmbedded({ port, host: '127.0.0.1', env: { FLAKY_RATE: 'often' } })).rejects.toThrow(ConfigError);
    const probe = http.createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(port, '127.0.0.1', () => resolve());
    });
    await new Promise((resolve) => probe.close(resolve));
  });
});
