import { chromium, firefox } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
const which = process.argv[2];
const port = 8898;
let browser;
if (which === 'chromium') browser = await chromium.launch({ executablePath: '/usr/lib/chromium/chromium', args: ['--no-sandbox', '--host-resolver-rules=MAP *.lan.test 127.0.0.1'] });
else {
  const profile = mkdtempSync('/tmp/ffp-');
  writeFileSync(`${profile}/user.js`, `user_pref("network.dns.localDomains", "a.lan.test,b.lan.test");\n`);
  browser = await firefox.launch({ channel: 'moz-firefox', executablePath: '/usr/bin/firefox-esr', ignoreDefaultArgs: true, args: ['--remote-debugging-port=0', '--headless', '--profile', profile] });
}
const page = await browser.newPage();
for (const name of (process.argv[3] ?? 'reads,bodies,forms,beacons,events,outcomes,proxy').split(',')) {
  await page.goto(`http://a.lan.test:${port}/${name}.html`);
  console.log(name, 'secure?', await page.evaluate(() => window.isSecureContext), await page.locator('#origin-other').textContent());
  await page.locator('#run-all').click();
  await page.waitForFunction(() => document.body.dataset.ranAll === 'true', null, { timeout: 180000 });
  const bad = await page.evaluate(() => [...document.querySelectorAll('section.experiment:not([data-manual])')].filter(s => !['agree','known-difference'].includes(s.dataset.state)).map(s => `${s.id}: ${s.dataset.state}: ${s.querySelector('output')?.textContent?.slice(0, 300)}`));
  console.log(name, bad);
}
await browser.close();
