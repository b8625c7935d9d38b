import type { BodyKind } from '@origin-lab/contract';
import { expect } from '../fixtures.js';
import { experimentTests } from './support/per-experiment.js';

type ContentTypeRow = { contentType?: string | null; bodyKind?: BodyKind; error?: string };

// SPEC.md, request bodies: one expectation per experiment, written from the spec.
experimentTests({
  page: 'bodies',
  runTimeout: 60_000,
  async run(page, { origins }) {
    await page.open(`${origins.self}/bodies.html`);
    const protocol = await page.evaluate(
      () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).nextHopProtocol,
    );
    return { protocol, results: await page.runAll(60_000) };
  },
  afterRun: {
    'content-types': ({ observed }, { browserName, run }) => {
      const rows = observed as Record<string, ContentTypeRow>;
      expect(rows['FormData']!.contentType).toMatch(/^multipart\/form-data; boundary=\S+$/);
      expect(rows['FormData']!.bodyKind).toBe('multipart');
      expect(rows['URLSearchParams']).toMatchObject({
        contentType: 'application/x-www-form-urlencoded;charset=UTF-8',
        bodyKind: 'urlencoded',
      });
      expect(rows['string']).toMatchObject({ contentType: 'text/plain;charset=UTF-8', bodyKind: 'other' });
      expect(rows['JSON string, no header set']).toMatchObject({
        contentType: 'text/plain;charset=UTF-8',
        bodyKind: 'other',
      });
      expect(rows['Blob typed application/json']).toMatchObject({ contentType: 'application/json', bodyKind: 'json' });
      for (const name of ['Blob with no type', 'ArrayBuffer', 'Uint8Array'])
        expect(rows[name], name).toMatchObject({ contentType: null, bodyKind: 'other' });
      const streamed = rows["ReadableStream with duplex: 'half'"]!;
      if (observed.streamsSupported) {
        expect(rows['ReadableStream without duplex']).toEqual({ error: 'TypeError' });
        if (browserName === 'chromium' && !['h2', 'h3'].includes(run.protocol))
          expect(streamed).toEqual({ error: 'TypeError' });
        else expect(streamed).toMatchObject({ contentType: null, bodyKind: 'other' });
      } else if (browserName === 'webkit') {
        // Measured in WebKit (GTK) 2.50.6: no stream bodies; fetch rejects either with NotSupportedError.
        for (const row of [streamed, rows['ReadableStream without duplex']!])
          expect(row).toEqual({ error: 'NotSupportedError' });
      } else {
        // Measured in Firefox: no stream bodies; the stream is sent as the text "[object ReadableStream]".
        expect(browserName).toBe('firefox');
        for (const row of [streamed, rows['ReadableStream without duplex']!])
          expect(row).toMatchObject({ contentType: 'text/plain;charset=UTF-8', bodyKind: 'other' });
      }
      expect(rows['string with Content-Type: application/json set']).toMatchObject({
        contentType: 'application/json',
        bodyKind: 'json',
      });
      expect(rows['URLSearchParams with Content-Type: text/plain set']).toMatchObject({
        contentType: 'text/plain',
        bodyKind: 'other',
      });
    },

    'undefined-body': ({ observed }) =>
      expect(observed).toMatchObject({ contentLength: '0', contentType: null, bodyKind: 'none', bodyBytes: 0 }),

    sizes: ({ observed: sizes }) => {
      expect(sizes.noFile.json).toBeLessThan(sizes.noFile.urlencoded);
      expect(sizes.noFile.json).toBeLessThan(sizes.noFile.multipart);
      expect(sizes.withFile.multipart).toBeLessThan(sizes.withFile.json);
      expect(sizes.withFile.multipart).toBeLessThan(sizes.withFile.urlencoded);
      expect(sizes.base64Chars).toBe(4 * Math.ceil(sizes.fileBytes / 3));
      // Base64 costs about a third: the JSON body grew by about 4/3 of the file.
      const growth = (sizes.withFile.json - sizes.noFile.json) / sizes.fileBytes;
      expect(growth).toBeGreaterThan(1.3);
      expect(growth).toBeLessThan(1.4);
    },

    'hand-set-multipart': ({ observed: hand }) => {
      expect(hand.wrongStatus).toBe(500);
      expect(hand.wrongDetail).toBe('Multipart: Boundary not found');
      expect(hand.rightStatus).toBe(201);
    },
  },
  // Firefox and WebKit (measured) send no stream bodies: the page marks the experiment as a known difference.
  knownDifferences: {
    'content-types': (_result, { browserName }) => browserName === 'firefox' || browserName === 'webkit',
  },
});
