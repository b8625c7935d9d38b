/**
 * Seeded random HTTP requests for the fuzz test: every endpoint, odd methods, paths, queries,
 * header names and values, Content-Types and bodies (invalid UTF-8, truncated multipart,
 * chunked, short bodies). Same seed, same requests.
 */
export interface FuzzRequest {
  method: string;
  target: string;
  bytes: Buffer;
  /** The body is shorter than Content-Length says: the server may close without answering. */
  truncated: boolean;
  description: string;
}

export type Random = () => number;

const ENDPOINTS = [
  '/api/posts',
  '/api/echo',
  '/api/beacon',
  '/api/stream',
  '/api/flaky',
  '/api/slow',
  '/api/bad-json',
  '/api/upstream/posts',
  '/api/upstream/tags',
];
const ODD_PATHS = [
  '/api/',
  '/api',
  '/api/nope',
  '/api/echo/',
  '/API/echo',
  '/api//echo',
  '/api/%65cho',
  '/api/%zz',
  '/api/%',
  '/api/echo%00',
  '/api/upstream/',
  '/api/upstream/../posts',
  '/api/upstream/%2e%2e/etc',
  '/api/upstream//evil.example/posts',
  '/api/upstream/POSTS',
  '/api/stream/../echo',
  '/api/\u00e9',
  '/api/' + 'a'.repeat(3000),
];
const METHODS = [
  'GET',
  'GET',
  'GET',
  'POST',
  'POST',
  'HEAD',
  'OPTIONS',
  'OPTIONS',
  'PUT',
  'DELETE',
  'PATCH',
  'TRACE',
  'PROPFIND',
];
const QUERY_NAMES = [
  'count',
  'ms',
  'rate',
  'cors',
  'x',
  'q',
  'title',
  '',
  '__proto__',
  'constructor',
  'count[]',
  'a.b',
];
const QUERY_VALUES = [
  '1',
  '0',
  '3',
  '-1',
  '120',
  '121',
  '99999999999999999999',
  'abc',
  '',
  '1.5',
  '0.5',
  '1e3',
  'off',
  'credentials',
  'on',
  '%ff%fe',
  '%',
  '%zz',
  '%E2%9C%93',
  '+',
  'a+b',
  '%00',
  '\'"<>',
  '0x10',
];
const ORIGINS = [
  'http://allowed.example',
  'https://b.localhost',
  'https://evil.example',
  'null',
  '',
  'http://allowed.example, https://evil.example',
  'HTTP://ALLOWED.EXAMPLE',
  'http://allowed.example/',
];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded;charset=UTF-8',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=fuzzBoundary',
  'multipart/form-data; boundary="quoted boundary"',
  'text/plain;charset=UTF-8',
  'text/plain',
  'application/octet-stream',
  ';;;',
  'garbage',
  '*/*',
  'application/json; charset=latin1',
  'x'.repeat(2_000),
];
const HEADER_NAMES = [
  'X-Requested-With',
  'Accept',
  'Accept-Language',
  'Cookie',
  'Authorization',
  'X-Custom',
  'X-' + 'h'.repeat(200),
  'Content-Language',
  'Range',
  'Referer',
  'User-Agent',
  'If-None-Match',
  'Last-Event-ID',
  'Access-Control-Request-Method',
  'Access-Control-Request-Headers',
];

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function randomBytes(random: Random, length: number, highBytes: boolean): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = highBytes ? Math.floor(random() * 256) : 32 + Math.floor(random() * 95);
  return bytes;
}

function headerValue(random: Random): Buffer {
  const roll = random();
  if (roll < 0.6) return randomBytes(random, Math.floor(random() * 40), false);
  if (roll < 0.75) return Buffer.from('');
  if (roll < 0.9)
    return Buffer.from(randomBytes(random, 1 + Math.floor(random() * 30), true).map((byte) => byte | 0x80)); // obs-text
  if (roll < 0.97) return randomBytes(random, 4_000, false);
  return Buffer.from([0x61, 0x01, 0x62]); // a control byte: the HTTP parser refuses it
}

function query(random: Random): string {
  if (random() < 0.3) return '';
  const parts: string[] = [];
  const count = 1 + Math.floor(random() * 4);
  for (let i = 0; i < count; i++) parts.push(`${pick(random, QUERY_NAMES)}=${pick(random, QUERY_VALUES)}`);
  return `?${parts.join('&')}`;
}

function multipart(random: Random, boundary: string): Buffer {
  const parts: Buffer[] = [];
  const fields = Math.floor(random() * 5);
  for (let i = 0; i < fields; i++) {
    const name = pick(random, ['title', 'author', 'tags', 'extra', 'title', '']);
    const value =
      random() < 0.3
        ? randomBytes(random, 20, true)
        : Buffer.from(pick(random, ['Hello', '', '   ', 'Ünïcödé ✓', 'x'.repeat(300)]));
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`),
      value,
      Buffer.from('\r\n'),
    );
  }
  if (random() < 0.4) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      randomBytes(random, Math.floor(random() * 2_000), true),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const whole = Buffer.concat(parts);
  // Truncated multipart: the declared length matches, the form itself stops half-way.
  return random() < 0.3 ? whole.subarray(0, Math.floor(random() * whole.length)) : whole;
}

function body(random: Random, contentType: string | undefined): Buffer {
  const essence = contentType?.split(';')[0]?.trim() ?? '';
  const roll = random();
  if (essence === 'multipart/form-data')
    return multipart(random, /boundary="?([^";]+)/.exec(contentType ?? '')?.[1] ?? 'fuzzBoundary');
  if (essence === 'application/json' && roll < 0.6)
    return Buffer.from(
      pick(random, ['{"a":1}', '{"title":"t","author":"a"}', '[1,2', 'null', '"\\ud800"', '{"a":' + '['.repeat(200)]),
    );
  if (essence === 'application/x-www-form-urlencoded' && roll < 0.6)
    return Buffer.from(
      pick(random, ['title=Hi&author=Me', 'title=&author=', 'title=%ff&author=%zz', 'a=1&a=2&title=x&title=y', '&&&=']),
    );
  if (roll < 0.2) return Buffer.alloc(0);
  return randomBytes(random, Math.floor(random() * 3_000), random() < 0.5);
}

export function fuzzRequest(random: Random): FuzzRequest {
  const method = pick(random, METHODS);
  const path = random() < 0.8 ? pick(random, ENDPOINTS) : pick(random, ODD_PATHS);
  const target = `${path}${query(random)}`;
  const lines: Buffer[] = [Buffer.from(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n`)];
  const described: string[] = [`${method} ${target.slice(0, 120)}`];
  const header = (name: string, value: Buffer | string) => {
    lines.push(
      Buffer.from(`${name}: `),
      Buffer.isBuffer(value) ? value : Buffer.from(value, 'latin1'),
      Buffer.from('\r\n'),
    );
    described.push(`${name}: ${(Buffer.isBuffer(value) ? value.toString('latin1') : value).slice(0, 60)}`);
  };
  if (random() < 0.7) header('Origin', pick(random, ORIGINS));
  if (random() < 0.15) header('Origin', pick(random, ORIGINS));
  if (method === 'OPTIONS' && random() < 0.7) {
    header('Access-Control-Request-Method', pick(random, ['POST', 'GET', 'PUT', '', 'post']));
    if (random() < 0.6)
      header(
        'Access-Control-Request-Headers',
        pick(random, ['content-type', 'x-requested-with,content-type', 'authorization', '', '*']),
      );
  }
  const extra = Math.floor(random() * 4);
  for (let i = 0; i < extra; i++) header(pick(random, HEADER_NAMES), headerValue(random));
  if (random() < 0.05) header(`X-Random-${Math.floor(random() * 1e6)}`, headerValue(random));

  const wantsBody = method !== 'GET' && method !== 'HEAD' ? random() < 0.85 : random() < 0.1;
  const contentType = wantsBody || random() < 0.2 ? pick(random, CONTENT_TYPES) : undefined;
  if (contentType !== undefined) header('Content-Type', contentType);
  let payload = wantsBody ? body(random, contentType) : Buffer.alloc(0);
  let truncated = false;
  if (wantsBody) {
    const framing = random();
    if (framing < 0.12) {
      header('Transfer-Encoding', 'chunked');
      payload = Buffer.concat([
        Buffer.from(`${payload.length.toString(16)}\r\n`),
        payload,
        Buffer.from(payload.length ? '\r\n0\r\n\r\n' : '\r\n'),
      ]);
    } else if (framing < 0.17 && payload.length > 1) {
      // Says more than it sends, then half-closes: the server must give up, not wait forever.
      header('Content-Length', String(payload.length + 1 + Math.floor(random() * 100)));
      truncated = true;
    } else {
      header('Content-Length', String(payload.length));
    }
  }
  lines.push(Buffer.from('\r\n'), payload);
  described.push(`body ${payload.length} bytes${truncated ? ' (shorter than declared)' : ''}`);
  return { method, target, bytes: Buffer.concat(lines), truncated, description: described.join(' | ') };
}
