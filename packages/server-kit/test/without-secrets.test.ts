import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, withoutSecrets } from '../src/log.js';

interface Case {
  sent: Record<string, string | string[]>;
  hidden: string[];
}

describe('credentials in logged headers', () => {
  it.each<Case>([
    { sent: { authorization: 'Bearer s3cret', origin: 'https://a.localhost' }, hidden: ['authorization'] },
    { sent: { 'proxy-authorization': 'Basic czNjcmV0' }, hidden: ['proxy-authorization'] },
    { sent: { cookie: 'session=s3cret', 'set-cookie': ['a=s3cret'] }, hidden: ['cookie', 'set-cookie'] },
    { sent: { origin: 'https://a.localhost', 'x-custom': 's3cret is fine here' }, hidden: [] },
  ])('a line with $sent shows $hidden as [redacted] and leaves the rest', ({ sent, hidden }) => {
    const lines: string[] = [];
    const logger = createLogger(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    logger.info({ headers: sent }, 'request');
    const logged = (JSON.parse(lines[0]!) as { headers: Record<string, unknown> }).headers;
    for (const [name, value] of Object.entries(sent))
      expect(logged[name]).toEqual(hidden.includes(name) ? '[redacted]' : value);
    // The request's own headers are never changed: the line gets a copy.
    if (hidden.length > 0) expect(sent[hidden[0]!]).not.toBe('[redacted]');
  });

  it('leaves what is not an object as it is', () => {
    expect(withoutSecrets('a string')).toBe('a string');
    expect(withoutSecrets(null)).toBe(null);
  });
});
