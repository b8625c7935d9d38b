import { describe, expect, it } from 'vitest';
import { serve } from '../src/serve.js';
import { countBodyBytes, CountedResponse } from '../src/counted-response.js';

type Writes = (res: CountedResponse) => void;

/** The ways a handler hands its body over: bytes the client receives, however they were written. */
const CASES: { name: string; writes: Writes }[] = [
  { name: 'one end() with a string', writes: (res) => res.end('{"ok":true}') },
  { name: 'multi-byte UTF-8 text', writes: (res) => res.end('héllo wörld, ✓') },
  { name: 'text in another encoding', writes: (res) => res.end('68656c6c6f', 'hex') },
  { name: 'a Buffer', writes: (res) => res.end(Buffer.from([1, 2, 3, 4, 5])) },
  {
    name: 'writes, then end() with a callback only',
    writes: (res) => {
      res.write('data: one\n\n');
      res.write(Buffer.from('data: two\n\n'), () => undefined);
      res.write('ü', 'utf8');
      res.end(() => undefined);
    },
  },
  { name: 'no body', writes: (res) => res.end() },
];

describe('CountedResponse', () => {
  it.each(CASES)('counts the body bytes of $name as the client receives them', async ({ writes }) => {
    const counted: number[] = [];
    const running = await serve(
      (_req, res) => {
        const count = countBodyBytes(res);
        res.on('finish', () => counted.push(count.bodyBytes));
        writes(res as CountedResponse);
      },
      { port: 0, host: '127.0.0.1' },
    );
    try {
      const answer = await fetch(`http://127.0.0.1:${running.port}/`);
      const received = (await answer.arrayBuffer()).byteLength;
      await expect.poll(() => counted).toHaveLength(1);
      expect(counted[0]).toBe(received);
    } finally {
      await running.stop();
    }
  });

  it('is what serve() answers with', async () => {
    let kind = '';
    const running = await serve(
      (_req, res) => {
        kind = res instanceof CountedResponse ? 'counted' : 'plain';
        res.end();
      },
      { port: 0, host: '127.0.0.1' },
    );
    try {
      await (await fetch(`http://127.0.0.1:${running.port}/`)).arrayBuffer();
      expect(kind).toBe('counted');
    } finally {
      await running.stop();
    }
  });
});
