import type { BenchOptions } from '../lib/options.js';
import type { Figure } from '../lib/report.js';
import { freePort, waitForOutput } from '@origin-lab/server-kit';
import { startChild } from '../lib/processes.js';

const LIMIT_KIB = 100;

/** Bytes of one URL's body as served, uncompressed (fetch undoes any Content-Encoding). */
async function bodyOf(url: string): Promise<{ text: string; bytes: number; type: string }> {
  const res = await fetch(url, { headers: { 'Accept-Encoding': 'identity' } });
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return { text: new TextDecoder().decode(bytes), bytes: bytes.length, type: res.headers.get('content-type') ?? '' };
}

/** Same-origin subresources a page loads by itself: scripts, stylesheets, module preloads, and JS/CSS imports, recursively. */
function references(text: string, type: string): string[] {
  const found: string[] = [];
  const add = (pattern: RegExp) => {
    for (const match of text.matchAll(pattern)) if (match[1]) found.push(match[1]);
  };
  if (type.includes('html')) {
    add(/<script\b[^>]*\bsrc\s*=\s*["']([^"']+)["']/gi);
    add(/<link\b[^>]*\brel\s*=\s*["'](?:stylesheet|modulepreload)["'][^>]*\bhref\s*=\s*["']([^"']+)["']/gi);
    add(/<link\b[^>]*\bhref\s*=\s*["']([^"']+)["'][^>]*\brel\s*=\s*["'](?:stylesheet|modulepreload)["']/gi);
    // Inline module scripts may import too.
    for (const script of text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi))
      found.push(...references(script[1] ?? '', 'javascript'));
  } else if (type.includes('javascript')) {
    add(/\bimport\s*(?:[\w*${}\s,]+?\s*from\s*)?["']([^"']+)["']/g);
    add(/\bexport\s*[\w*${}\s,]*?\s*from\s*["']([^"']+)["']/g);
    add(/\bimport\(\s*["']([^"']+)["']\s*\)/g);
  } else if (type.includes('css')) {
    add(/@import\s+(?:url\()?["']?([^"')\s;]+)["']?\)?/g);
  }
  return found;
}

/** Every page linked from the index (and the index), with the bytes of HTML + JS + CSS it loads. */
async function weighPages(origin: string): Promise<{ page: string; bytes: number; files: number }[]> {
  const index = await bodyOf(`${origin}/`);
  const pages = new Set<string>(['/']);
  for (const match of index.text.matchAll(/<a\b[^>]*\bhref\s*=\s*["']([^"'#?]+\.html)["']/gi)) {
    const url = new URL(match[1]!, `${origin}/`);
    if (url.origin === origin) pages.add(url.pathname);
  }
  const weights: { page: string; bytes: number; files: number }[] = [];
  for (const page of pages) {
    const seen = new Set<string>();
    let bytes = 0;
    const visit = async (url: string) => {
      if (seen.has(url)) return;
      seen.add(url);
      const body = await bodyOf(url);
      bytes += body.bytes;
      for (const ref of references(body.text, body.type)) {
        const next = new URL(ref, url);
        if (next.origin === origin) await visit(next.href);
      }
    };
    await visit(`${origin}${page}`);
    weights.push({ page, bytes, files: seen.size });
  }
  return weights;
}

/** Page weight of every demonstration page, served by the embedded stack, uncompressed. */
export async function pageWeightBench(_options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  const port = await freePort();
  const child = startChild(process.execPath, ['launcher/dist/start.js'], {
    env: { ...process.env, PORT: String(port), LOG_REQUESTS: 'false' },
  });
  try {
    await waitForOutput(child.process, /http:\/\/localhost:\d+\//, 15_000, 'the embedded stack');
    const weights = await weighPages(`http://127.0.0.1:${port}`);
    return weights.map(({ page, bytes, files }) => {
      log(`  ${page}: ${bytes} bytes in ${files} files`);
      return {
        bench: 'pages',
        name: `${page} HTML+JS+CSS (${files} files)`,
        value: bytes / 1024,
        unit: 'KiB',
        ratio: bytes / 1024 / LIMIT_KIB,
        baseline: { label: 'target', value: LIMIT_KIB },
        target: `< ${LIMIT_KIB} KiB`,
        met: bytes / 1024 < LIMIT_KIB,
      };
    });
  } finally {
    await child.stop();
  }
}
