import { marker } from '../frame/dom.js';
import { experiment, runAllButton } from '../frame/experiment.js';
import { setupPage } from '../page/setup-page.js';

const ctx = setupPage();
const box = ctx.experiments;
runAllButton(box);

interface UpstreamBody {
  upstream?: { call?: number; query?: string };
  posts?: unknown[];
  tags?: unknown[];
}

/**
 * cache: 'no-store' keeps the browser's own HTTP cache out of the way (the proxy answers with
 * Cache-Control: public, max-age=300), so each call reaches the server and shows its cache.
 */
async function viaProxy(path: string) {
  const response = await fetch(path, { cache: 'no-store' });
  const text = await response.text();
  let body: UpstreamBody | null = null;
  try {
    body = JSON.parse(text) as UpstreamBody;
  } catch {
    body = null;
  }
  return {
    status: response.status,
    contentType: response.headers.get('Content-Type'),
    cacheControl: response.headers.get('Cache-Control'),
    xCache: response.headers.get('X-Cache'),
    age: response.headers.get('Age'),
    upstreamCall: body?.upstream?.call ?? null,
    text: body === null ? text : null,
    body,
  };
}

experiment(box, {
  id: 'miss-then-hit',
  title: 'GET /api/upstream/posts twice: fetched once, then served from the shared cache',
  predicted:
    'Same origin, so no preflight, no allowlist, no exposed headers. The first call is a miss: the server calls the third party with its own key and caches the answer (Cache-Control: public, max-age=300). The second is a hit: X-Cache HIT, and the third party was not called again (the same upstream call number). A fresh query string makes a fresh cache key.',
  async run() {
    const path = `/api/upstream/posts?page=2&demo=${marker('proxy')}`;
    const first = await viaProxy(path);
    const second = await viaProxy(path);
    const brief = ({ body: _body, text: _text, ...rest }: Awaited<ReturnType<typeof viaProxy>>) => rest;
    const observed = { first: brief(first), second: brief(second), postsIsArray: Array.isArray(first.body?.posts) };
    return {
      observed,
      summary: `first: ${first.status}, X-Cache ${first.xCache}, upstream call #${first.upstreamCall}, ${first.cacheControl}\nsecond: ${second.status}, X-Cache ${second.xCache}, Age ${second.age}, upstream call #${second.upstreamCall}`,
      agrees:
        first.status === 200 &&
        second.status === 200 &&
        first.xCache === 'MISS' &&
        second.xCache === 'HIT' &&
        first.upstreamCall !== null &&
        first.upstreamCall === second.upstreamCall &&
        first.cacheControl === 'public, max-age=300' &&
        observed.postsIsArray,
    };
  },
});

experiment(box, {
  id: 'tags',
  title: 'GET /api/upstream/tags, the other allowed path',
  predicted: '200 with the third party\u2019s tags, as JSON.',
  async run() {
    const result = await viaProxy('/api/upstream/tags');
    return {
      observed: {
        status: result.status,
        contentType: result.contentType,
        tagsIsArray: Array.isArray(result.body?.tags),
      },
      summary: `${result.status}, ${result.contentType}, ${JSON.stringify(result.body?.tags)}`,
      agrees: result.status === 200 && Array.isArray(result.body?.tags),
    };
  },
});

experiment(box, {
  id: 'not-proxied',
  title: 'Paths that are not on the proxy\u2019s list',
  predicted:
    'Only a fixed set of upstream paths is forwarded; anything else (another path, a full URL) answers 404 with the plain text "Not proxied". Forwarding arbitrary URLs would make an open proxy.',
  async run() {
    const other = await viaProxy('/api/upstream/users');
    const url = await viaProxy('/api/upstream/https://example.com/');
    const observed = {
      otherPath: { status: other.status, contentType: other.contentType, text: other.text },
      fullUrl: { status: url.status, contentType: url.contentType, text: url.text },
    };
    const refused = (r: { status: number; contentType: string | null; text: string | null }) =>
      r.status === 404 && (r.contentType ?? '').startsWith('text/plain') && r.text === 'Not proxied';
    return {
      observed,
      summary: `/api/upstream/users: ${other.status} "${other.text}"\n/api/upstream/https://example.com/: ${url.status} "${url.text}"`,
      agrees: refused(observed.otherPath) && refused(observed.fullUrl),
    };
  },
});

experiment(box, {
  id: 'from-other-origin',
  title: 'The same proxy called from the other origin',
  predicted:
    'Cross-origin it is an ordinary CORS read again: the body is readable (the origin is allowed) but X-Cache is not one of the safelisted response headers, so the page sees null for it. The proxy pattern pays off only same-origin.',
  async run() {
    const response = await fetch(`${ctx.other()}/api/upstream/tags`, { cache: 'no-store' });
    const body = (await response.json()) as UpstreamBody;
    const observed = {
      status: response.status,
      xCache: response.headers.get('X-Cache'),
      tagsIsArray: Array.isArray(body.tags),
    };
    return {
      observed,
      summary: `status ${observed.status}, tags readable: ${observed.tagsIsArray}, X-Cache seen as ${JSON.stringify(observed.xCache)}`,
      agrees: observed.status === 200 && observed.tagsIsArray && observed.xCache === null,
    };
  },
});
