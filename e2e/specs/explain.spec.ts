import { readFileSync, writeFileSync } from 'node:fs';
import type { Request } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import type { EnginePage } from '../engines/engine.js';
import { EVERY_ENGINE, test, expect } from '../fixtures.js';
import { openPage } from '../engines/experiments.js';

/**
 * The Explain page, in every engine: evidence pasted or chosen is explained on the page (in a
 * worker), each card naming the rule, the header at fault, the fix and the playground case; bad
 * input gets a sentence; a large HAR shows its progress; and nothing pasted leaves the page.
 */

const corpus = (engine: string) =>
  JSON.parse(
    readFileSync(
      fileURLToPath(new URL(`../../packages/cors-rules/test/corpus/console-${engine}.json`, import.meta.url)),
      'utf8',
    ),
  ) as { cases: Record<string, { messages: string[] }> };

/** Puts text in the evidence box (a classic script, as every engine's driver runs one) and presses Explain. */
async function explain(page: EnginePage, text: string): Promise<void> {
  await page.addScript(
    `document.getElementById('evidence').value = ${JSON.stringify(text)}; document.getElementById('evidence-file').value = ''; document.getElementById('explanations').replaceChildren();`,
  );
  await page.click('#explain');
  await page.waitFor(
    () => document.querySelector('#explanations .explanation, #explanations .explain-error') !== null,
    20_000,
    'an explanation or an error on the Explain page',
  );
}

/** A HAR of count cross-origin GETs, the last one refused (no Access-Control-Allow-Origin), each marked with secret. */
function har(count: number, secret: string): string {
  const entry = (n: number, allow: boolean) => ({
    startedDateTime: '2026-11-26T12:00:00.000Z',
    time: 10,
    request: {
      method: 'GET',
      url: `https://api.example.com/items/${n}?token=${secret}`,
      headers: [
        { name: 'Origin', value: 'https://app.example.com' },
        { name: 'Cookie', value: `session=${secret}` },
      ],
    },
    response: {
      status: 200,
      headers: allow
        ? [
            { name: 'Access-Control-Allow-Origin', value: 'https://app.example.com' },
            { name: 'Access-Control-Allow-Credentials', value: 'true' },
            { name: 'Vary', value: 'Origin' },
          ]
        : [{ name: 'Content-Type', value: 'application/json' }],
      content: { size: 2, mimeType: 'application/json', text: `{"secret":"${secret}"}` },
    },
  });
  return JSON.stringify({
    log: { version: '1.2', entries: Array.from({ length: count }, (_, n) => entry(n, n < count - 1)) },
  });
}

test(
  'a console message is explained: the rule, the header and value at fault, the fix, and the case in the playground',
  { tag: EVERY_ENGINE },
  async ({ enginePage, origins }) => {
    await enginePage.open(`${origins.self}/explain.html`);
    await explain(enginePage, corpus('chromium').cases['origin-star-credentials']!.messages.join('\n'));
    const card = await enginePage.evaluate(() => {
      const article = document.querySelector('#explanations .explanation');
      return {
        verdict: article?.querySelector('.verdict-label')?.textContent,
        header: article?.querySelector('.at-fault code')?.textContent,
        fix: article?.querySelector('.fix')?.textContent,
        link: article?.querySelector<HTMLAnchorElement>('a[href^="/playground.html"]')?.getAttribute('href'),
        drawing: article?.querySelector('svg.sequence')?.getAttribute('aria-label'),
        status: document.getElementById('explain-status')?.textContent,
      };
    });
    expect(card).toMatchObject({
      verdict: 'Refused: ',
      header: 'access-control-allow-origin',
      link: '/playground.html#allow-credentials=on&allow-origin=*&credentials=include',
      status: '1 explained: 1 refused.',
    });
    expect(card.fix).toContain('Access-Control-Allow-Credentials: true and the origin named exactly');
    expect(card.drawing).toContain('CORS check of the answer (failed here)');
    // The link opens the same case in the playground.
    await enginePage.click('#explanations a[href^="/playground.html"]');
    await enginePage.waitFor(() => location.pathname === '/playground.html', 10_000, 'the playground');
    expect(await enginePage.evaluate(() => location.hash)).toBe(
      '#allow-credentials=on&allow-origin=*&credentials=include',
    );
  },
);

test(
  'bad input gets a sentence saying what is wrong, never a frozen page',
  { tag: EVERY_ENGINE },
  async ({ enginePage, origins }) => {
    await enginePage.open(`${origins.self}/explain.html`);
    for (const [text, message] of [
      ['', 'nothing to explain: the input is empty'],
      ['{"log": {"entries": [', 'not a HAR: the JSON does not parse'],
      ['{"entries": []}', 'this JSON is not a HAR'],
      ['GET / 200 all good', 'no CORS message found'],
    ] as const) {
      await explain(enginePage, text);
      expect(await enginePage.text('#explanations .explain-error'), JSON.stringify(text)).toContain(message);
    }
  },
);

test(
  'a HAR of 20,000 exchanges is read off the main thread with its progress, failed ones first, the readable ones cut short',
  { tag: EVERY_ENGINE },
  async ({ enginePage, origins }) => {
    test.setTimeout(120_000);
    await enginePage.open(`${origins.self}/explain.html`);
    await enginePage.addScript(
      `window.__progressSeen = false; new MutationObserver(() => { if (!document.getElementById('explain-progress').hidden) window.__progressSeen = true; }).observe(document.getElementById('explain-progress'), { attributes: true });`,
    );
    const text = har(20_000, 'not-secret');
    await enginePage.chooseFiles('#evidence-file', [
      { name: 'session.har', mimeType: 'application/json', buffer: Buffer.from(text) },
    ]);
    await enginePage.click('#explain');
    await enginePage.waitFor(
      () => document.querySelector('#explanations .explanation') !== null,
      90_000,
      'the HAR explained',
    );
    const seen = await enginePage.evaluate(() => ({
      progress: (window as unknown as { __progressSeen: boolean }).__progressSeen,
      first: document.querySelector('#explanations .explanation .verdict-label')?.textContent,
      cards: document.querySelectorAll('#explanations .explanation').length,
      more: document.querySelector('#explanations .more-readable')?.textContent,
    }));
    // The refused one, then the first 100 readable ones; the rest counted.
    expect(seen).toEqual({
      progress: true,
      first: 'Refused: ',
      cards: 101,
      more: '19,899 more exchanges the page could read are not shown.',
    });
  },
);

/** A HAR of an answer kept (200, allowed, with an ETag) and its revalidation (304, no Allow-Origin of its own). */
function revalidationHar(): string {
  const header = (name: string, value: string) => ({ name, value });
  const exchange = (status: number, headers: { name: string; value: string }[], sent: object[] = []) => ({
    startedDateTime: '2026-11-26T12:00:00.000Z',
    time: 10,
    request: {
      method: 'GET',
      url: 'https://api.example.com/items',
      headers: [header('Origin', 'https://app.example.com'), ...sent],
    },
    response: { status, headers },
  });
  const etag = header('ETag', '"v1"');
  return JSON.stringify({
    log: {
      version: '1.2',
      entries: [
        exchange(200, [header('Access-Control-Allow-Origin', 'https://app.example.com'), etag]),
        exchange(304, [etag], [header('If-None-Match', '"v1"')]),
      ],
    },
  });
}

test('a HAR pasted is read on the page as the command reads it, and no request the page makes carries any of it', async ({
  page,
  origins,
}) => {
  const secret = `secret-${Date.now().toString(36)}`;
  const requests: Request[] = [];
  await openPage(page, `${origins.self}/explain.html`);
  page.on('request', (request) => requests.push(request));
  await page.locator('#evidence').fill(har(50, secret));
  await page.locator('#explain').click();
  await expect(page.locator('#explanations .explanation').first()).toBeVisible();
  // The URLs are shown without their query values (the token is one), as the command shows them.
  await expect(page.locator('#explanations')).toContainText('https://api.example.com/items/49?token=…');
  await expect(page.locator('#explanations')).not.toContainText(secret);
  // Let the page's own traffic (its journal) go on for a while, then look at everything it sent.
  await page.waitForTimeout(2_000);
  expect(requests.length).toBeGreaterThan(0);
  for (const request of requests) {
    const sent = [request.url(), request.postData() ?? '', JSON.stringify(await request.allHeaders())].join('\n');
    expect(sent, request.url()).not.toContain(secret);
  }
  // A 304 is read with the answer it revalidates (RFC 9111), whose Allow-Origin it keeps: readable.
  await page.locator('#evidence').fill(revalidationHar());
  await page.locator('#explain').click();
  await expect(page.locator('#explanations .verdict-label')).toHaveText(['Readable: ', 'Readable: ']);
});

test('a HAR recorded by Playwright of a refused read is explained as each engine records it', async ({
  browser,
  browserName,
  origins,
}, testInfo) => {
  const harPath = testInfo.outputPath('refused.har');
  const context = await browser.newContext({ recordHar: { path: harPath, content: 'omit' } });
  const page = await context.newPage();
  await openPage(page, `${origins.self}/playground.html#allow-origin=none`);
  await page.locator('#send').click();
  await expect(page.locator('#agreement')).not.toHaveAttribute('data-state', 'idle');
  await context.close();

  const reader = await browser.newPage();
  await openPage(reader, `${origins.self}/explain.html`);
  await reader.locator('#evidence').fill(readFileSync(harPath, 'utf8'));
  await reader.locator('#explain').click();
  const lab = reader.locator('#explanations .explanation', { hasText: '/lab/cors' }).first();
  await expect(lab).toBeVisible();
  if (browserName === 'chromium') {
    // Chromium records a read it refused without the answer's headers: the page says it cannot tell, and how to find out.
    await expect(lab.locator('.verdict-label')).toHaveText('Cannot tell: ');
    await expect(lab).toContainText('Chromium records a read it refused so, without the answer’s headers');
  } else {
    // Firefox records the answer it refused, headers and all: the rule is read from them.
    await expect(lab.locator('.verdict-label')).toHaveText('Refused: ');
    await expect(lab.locator('.at-fault code').first()).toHaveText('access-control-allow-origin');
  }
  await reader.close();
});

test('a file over the 50 MB limit is refused by its size, before it is read', async ({ page, origins }, testInfo) => {
  const path = testInfo.outputPath('session.har');
  // 50 MB and one byte, made on disk (Playwright hands the browser a file by its path).
  writeFileSync(path, Buffer.alloc(50 * 1024 * 1024 + 1, 0x20));
  await openPage(page, `${origins.self}/explain.html`);
  await page.locator('#evidence-file').setInputFiles(path);
  await page.locator('#explain').click();
  await expect(page.locator('#explanations .explain-error')).toContainText(
    'session.har is 52,428,801 bytes, over the limit of 50 MB (52,428,800 bytes): it was not read',
  );
});
