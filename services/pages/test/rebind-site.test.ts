import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asRebindSite, rebindSiteFromFile } from '../src/rebind-site.js';
import { serve } from '@origin-lab/server-kit';
import { createApp } from '../src/app.js';

/**
 * The rebinding lab as a service of its own (compose) tells the pages its settings through a
 * file (REBIND_SITE_FILE): /site-config.js carries them while the file is there and says nothing
 * of the lab while it is not, or while it holds something else.
 */
const dir = mkdtempSync(join(tmpdir(), 'origin-lab-rebind-site-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SITE = {
  resolver: 'https://127.0.0.1:8853/dns-query{?dns}',
  caPem: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
  domain: 'rebind.test',
  ports: { open: 8854, checked: 8855 },
};

describe('the rebinding lab in a file of its own', () => {
  it('is read as the lab wrote it', () => {
    expect(asRebindSite(JSON.stringify(SITE))).toEqual(SITE);
  });

  it.each([
    ['not JSON', '{'],
    ['null', 'null'],
    [
      'a resolver elsewhere than loopback',
      JSON.stringify({ ...SITE, resolver: 'https://evil.example/dns-query{?dns}' }),
    ],
    ['no certificate', JSON.stringify({ ...SITE, caPem: 'hello' })],
    ['a port out of range', JSON.stringify({ ...SITE, ports: { open: 70_000, checked: 8855 } })],
    ['a domain with a script in it', JSON.stringify({ ...SITE, domain: '</script>' })],
  ])('is off when the file holds %s', (_, text) => {
    expect(asRebindSite(text)).toBeNull();
  });

  it('follows the file: off before it is written, on while it is there, off once it is removed', async () => {
    const file = join(dir, 'follows.json');
    const read = rebindSiteFromFile(file, 0);
    expect(await read()).toBeNull();
    writeFileSync(file, JSON.stringify(SITE));
    expect(await read()).toEqual(SITE);
    rmSync(file);
    expect(await read()).toBeNull();
  });

  it("puts the lab's settings in /site-config.js while the file is there", async () => {
    const file = join(dir, 'served.json');
    writeFileSync(file, JSON.stringify(SITE));
    const app = createApp({
      root: dir,
      sitePairs: [['x.localhost', 'y.localhost']],
      thirdSite: null,
      websocketTargetPort: undefined,
      rebindSiteFile: file,
    });
    const pages = await serve(app.callback(), { port: 0, host: '127.0.0.1' });
    try {
      const script = await (await fetch(`http://127.0.0.1:${pages.port}/site-config.js`)).text();
      expect(script).toContain(`"rebind":${JSON.stringify(SITE)}`);
    } finally {
      await pages.stop();
    }
  });
});
