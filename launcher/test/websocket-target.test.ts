import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebSocketTarget } from '../src/websocket-target.js';

/**
 * The Local Network Access page's WebSocket target (RFC 6455): a real server, a real client. It
 * tells each connection the Origin it came with, then closes it normally (1000).
 */
function greeting(url: string, origin?: string): Promise<{ message: string; code: number }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, origin === undefined ? {} : { origin });
    let message = '';
    socket.on('message', (data) => (message = String(data)));
    socket.on('close', (code) => resolve({ message, code }));
    socket.on('error', reject);
  });
}

describe('the WebSocket target beside the lab', () => {
  it('greets a connection on either loopback address with its Origin, then closes it normally', async () => {
    const target = await startWebSocketTarget();
    try {
      const v4 = await greeting(`ws://127.0.0.1:${target.port}/`, 'http://[::1]:8080');
      expect(v4).toEqual({ message: JSON.stringify({ origin: 'http://[::1]:8080' }), code: 1000 });
      const v6 = await greeting(`ws://[::1]:${target.port}/`);
      expect(v6).toEqual({ message: JSON.stringify({ origin: null }), code: 1000 });
    } finally {
      await target.stop();
    }
  });

  it('answers a plain GET 404, and is gone once stopped', async () => {
    const target = await startWebSocketTarget();
    const url = `http://127.0.0.1:${target.port}/`;
    expect((await fetch(url)).status).toBe(404);
    await target.stop();
    await expect(fetch(url)).rejects.toThrow();
  });
});
