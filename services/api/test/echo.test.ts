import { describe, expect, it } from 'vitest';
import { apiForFile } from './start-api.js';
import type { EchoReflection } from '@origin-lab/contract';
import { rawExchange } from '@origin-lab/test-kit';

const api = apiForFile();

async function echo(init: RequestInit & { duplex?: 'half' } = {}, query = ''): Promise<EchoReflection> {
  const res = await fetch(`${api.url}/api/echo${query}`, init);
  expect(res.status).toBe(200);
  return (await res.json()) as EchoReflection;
}

describe('echo reflects the request', () => {
  it('method, path, query, every header and the raw body as text', async () => {
    const body = '{"keep": "exactly   as sent", "n": 1}';
    const reflected = await echo(
      { method: 'POST', body, headers: { 'Content-Type': 'application/json', 'X-Custom-Thing': 'yes' } },
      '?a=1&a=2&b=%C3%A9',
    );
    expect(reflected.method).toBe('POST');
    expect(reflected.path).toBe('/api/echo');
    expect(reflected.query).toEqual({ a: ['1', '2'], b: 'é' });
    expect(reflected.headers['x-custom-thing']).toBe('yes');
    expect(reflected.headers['content-type']).toBe('application/json');
    expect(reflected.body).toBe(body);
    expect(reflected.bodyBytes).toBe(Buffer.byteLength(body));
    expect(reflected.headers['content-length']).toBe(String(Buffer.byteLength(body)));
  });

  it('never parses the body: broken JSON labelled json is reflected as it came', async () => {
    const reflected = await echo({
      method: 'POST',
      body: '{not json',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(reflected).toMatchObject({ body: '{not json', bodyKind: 'json' });
  });

  it.each(['PUT', 'PATCH', 'DELETE'])('answers %s like any other method', async (method) => {
    const reflected = await echo({ method, body: 'x', headers: { 'Content-Type': 'text/plain' } });
    expect(reflected).toMatchObject({ method, bodyKind: 'other', body: 'x' });
  });

  it('HEAD gets the headers of the answer and no body', async () => {
    const res = await fetch(`${api.url}/api/echo`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('bytes that are not UTF-8 come back as text with replacement characters and exactly as base64', async () => {
    const bytes = Buffer.from([0x66, 0x6f, 0xff, 0xfe, 0x6f]);
    const reflected = await echo({
      method: 'POST',
      body: bytes,
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expect(reflected.bodyBase64).toBe(bytes.toString('base64'));
    expect(reflected.body).toContain('\uFFFD');
    expect(reflected.bodyBytes).toBe(5);
  });

  it('valid UTF-8 in any script is reflected as text with no base64 copy', async () => {
    const text = 'naïve 日本語 🙂';
    const reflected = await echo({
      method: 'POST',
      body: text,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
    expect(reflected.body).toBe(text);
    expect(reflected.bodyBase64).toBeUndefined();
  });
});

describe('bodyKind comes from the Content-Type alone', () => {
  it.each([
    ['application/json', 'json'],
    ['application/json; charset=utf-8', 'json'],
    ['Application/JSON', 'json'],
    ['application/x-www-form-urlencoded', 'urlencoded'],
    ['application/x-www-form-urlencoded;charset=UTF-8', 'urlencoded'],
    ['multipart/form-data; boundary=abc', 'multipart'],
    ['multipart/form-data', 'multipart'],
    ['text/plain;charset=UTF-8', 'other'],
    ['application/ld+json', 'other'],
    ['image/png', 'other'],
  ])('%s gives %s', async (contentType, kind) => {
    // The same bytes every time: the kind follows the label, not the content.
    const reflected = await echo({ method: 'POST', body: 'a=1', headers: { 'Content-Type': contentType } });
    expect(reflected.bodyKind).toBe(kind);
  });

  it('GET and HEAD are none even with a Content-Type', async () => {
    expect((await echo({ headers: { 'Content-Type': 'application/json' } })).bodyKind).toBe('none');
  });

  it('a body-less POST with no Content-Type is none; with a body and no Content-Type it is other', async () => {
    expect((await echo({ method: 'POST' })).bodyKind).toBe('none');
    const raw = await rawExchange(
      api.port,
      'POST /api/echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 3\r\n\r\nabc',
      { halfClose: true },
    );
    expect(JSON.parse(raw.text)).toMatchObject({ bodyKind: 'other', body: 'abc' });
  });
});

describe('the Content-Type that fetch writes by itself (as Node fetch reproduces it)', () => {
  it('FormData: multipart/form-data with a boundary, and the boundary ends the body with --', async () => {
    const form = new FormData();
    form.set('title', 'x');
    const reflected = await echo({ method: 'POST', body: form });
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(String(reflected.headers['content-type'] ?? ''))?.[1];
    expect(boundary).toBeDefined();
    expect(reflected.bodyKind).toBe('multipart');
    expect(reflected.body).toContain('Content-Disposition: form-data; name="title"');
    expect(reflected.body.trimEnd().endsWith(`--${boundary}--`)).toBe(true);
  });

  it('URLSearchParams: urlencoded with charset, space as +, other bytes percent-escaped per UTF-8 byte', async () => {
    const reflected = await echo({ method: 'POST', body: new URLSearchParams({ q: 'a b&é*-._~' }) });
    expect(reflected.headers['content-type']).toBe('application/x-www-form-urlencoded;charset=UTF-8');
    expect(reflected.bodyKind).toBe('urlencoded');
    expect(reflected.body).toBe('q=a+b%26%C3%A9*-._%7E');
  });

  const typed: { what: string; body: BodyInit; contentType: string; kind: string }[] = [
    {
      what: 'a string: text/plain;charset=UTF-8 and other, even when the string is JSON',
      body: JSON.stringify({ a: 1 }),
      contentType: 'text/plain;charset=UTF-8',
      kind: 'other',
    },
    {
      what: 'a Blob with a type sends that type; the kind follows it',
      body: new Blob(['{"a":1}'], { type: 'application/json' }),
      contentType: 'application/json',
      kind: 'json',
    },
  ];
  for (const { what, body, contentType, kind } of typed) {
    it(what, async () => {
      const reflected = await echo({ method: 'POST', body });
      expect(reflected.headers['content-type']).toBe(contentType);
      expect(reflected.bodyKind).toBe(kind);
    });
  }

  it('a Blob with no type, an ArrayBuffer and a typed array send no Content-Type: other', async () => {
    for (const body of [new Blob(['abc']), new TextEncoder().encode('abc').buffer, new Uint8Array([97, 98, 99])]) {
      const reflected = await echo({ method: 'POST', body });
      expect(reflected.headers['content-type']).toBeUndefined();
      expect(reflected).toMatchObject({ bodyKind: 'other', body: 'abc' });
    }
  });

  it("a ReadableStream needs duplex: 'half', sends no Content-Type and is other", async () => {
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('streamed'));
        controller.close();
      },
    });
    await expect(
      fetch(`${api.url}/api/echo`, { method: 'POST', body: new ReadableStream() } as RequestInit),
    ).rejects.toThrow(TypeError);
    const reflected = await echo({ method: 'POST', body, duplex: 'half' });
    expect(reflected.headers['content-type']).toBeUndefined();
    expect(reflected.headers['transfer-encoding']).toBe('chunked');
    expect(reflected).toMatchObject({ bodyKind: 'other', body: 'streamed' });
  });

  it("the caller's Content-Type wins unchanged, and the kind follows the claim", async () => {
    const form = new FormData();
    form.set('a', '1');
    const claimed = await echo({ method: 'POST', body: form, headers: { 'Content-Type': 'application/json' } });
    expect(claimed.headers['content-type']).toBe('application/json');
    expect(claimed.bodyKind).toBe('json');
    const jsonString = await echo({ method: 'POST', body: '{"a":1}', headers: { 'Content-Type': 'application/json' } });
    expect(jsonString.bodyKind).toBe('json');
  });

  it('a body of undefined sends nothing: Content-Length 0, no Content-Type, none', async () => {
    const reflected = await echo({ method: 'POST', body: undefined });
    expect(reflected.headers['content-length']).toBe('0');
    expect(reflected.headers['content-type']).toBeUndefined();
    expect(reflected).toMatchObject({ bodyKind: 'none', body: '', bodyBytes: 0 });
  });
});
