import { pollUntil } from '@origin-lab/test-kit';
import { test, expect } from '../fixtures.js';
import { plainOrigins } from '../stacks/tls-front.js';
import { siteConfig } from './support/site-config.js';
import { expectCountedPublic, runRebinding } from './support/rebinding.js';

/**
 * The DNS rebinding lab as compose runs it (`docker compose --profile rebind up`): a service of
 * its own on the host's network, whose settings reach the pages through a file on a volume. The
 * attack is the one local-network.spec.ts runs on the embedded stack, driven here in Firefox (it
 * rebinds after the one-second TTL; Chromium keeps an answer a minute, and its differences are
 * that spec's), from the Local Network Access page over http:// as the recipe says.
 */

test('local-network: rebinding through compose’s rebind service, in Firefox', async ({ stackName }) => {
  test.setTimeout(180_000);
  const [origin] = plainOrigins(stackName);
  // The pages read the lab's file again every two seconds; the lab writes it once it listens.
  await pollUntil('the rebinding lab in /site-config.js', () => siteConfig(origin), {
    timeoutMs: 30_000,
    intervalMs: 500,
    done: (site) => site.rebind !== undefined,
  });
  const run = await runRebinding('firefox', origin);
  expect(run.asSetUp['rebind-open']!.observed).toMatchObject({ outcome: 'read', status: 200 });
  expect(run.asSetUp['rebind-open']!.state).toBe('agree');
  expect(run.asSetUp['rebind-checked']!.observed).toMatchObject({ outcome: 'refused', status: 403, refused: 'Host' });
  expect(run.asSetUp['rebind-checked']!.state).toBe('agree');
  expectCountedPublic('firefox', run.countedPublic);
});

test('local-network: over https://, the rebinding experiment says to open the page over http://', async ({
  enginePage,
  origins,
}) => {
  await enginePage.open(`${origins.self}/local-network.html`);
  const result = await enginePage.runExperiment('rebind-open', 30_000);
  expect(result.state).toBe('error');
  expect(result.observed.experimentError).toContain('open this page over http:// rather than https://');
});
