import { exec } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { JournalPage } from '@origin-lab/contract';
import { pollUntil } from '@origin-lab/test-kit';
import { forFile } from '@origin-lab/test-kit/vitest';
import { PAGES_WITH_EXPERIMENTS } from '../../e2e/specs/support/pages.js';
import { startEmbedded } from '../../launcher/src/embedded.js';
import { PAGES, pagePath } from '../../services/pages/src/page-table.js';

/**
 * Claims of the README that a newcomer acts on first: which pages there are, and the curl lines
 * that read a visitor's journal, run as written (with curl) against the server `npm start` runs.
 */
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The text of the README's section under `## title`, up to the next section. */
function section(title: string): string {
  const found = README.split(/^## /m).find((part) => part.startsWith(`${title}\n`));
  if (found === undefined) throw new Error(`README.md has no section "${title}"`);
  return found;
}

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const written = (count: number) => NUMBER_WORDS[count] ?? String(count);

describe('README: the pages', () => {
  // Line breaks of the Markdown source are spaces to a reader.
  const text = section('The pages').replace(/\s+/g, ' ');
  const linked = PAGES.filter((page) => page.name !== 'index');
  const demonstrations = linked.filter((page) => PAGES_WITH_EXPERIMENTS.includes(pagePath(page)));

  it('names every page the index links, by its title', () => {
    const unnamed = linked.filter((page) => !text.toLowerCase().includes(page.title.toLowerCase()));
    expect(unnamed.map((page) => page.title)).toEqual([]);
  });

  it('counts the demonstrations (pages with experiments) and the tools beside them as the page table has them', () => {
    expect(text).toMatch(new RegExp(`\\b${written(demonstrations.length)} demonstrations,`, 'i'));
    expect(text).toMatch(new RegExp(`\\b${written(linked.length - demonstrations.length)} tools:`, 'i'));
  });
});

describe("README: a visitor's journal from curl", () => {
  const server = forFile(() => startEmbedded({ port: 0, host: '127.0.0.1', env: {}, log: () => {} }));
  /** A README curl line, run by the shell as written, aimed at this test's server instead of port 8080. */
  const run = async (line: string) =>
    (await promisify(exec)(line.replaceAll('localhost:8080', `127.0.0.1:${server.port}`), { timeout: 5_000 })).stdout;
  const journalLines = section('The API at a glance')
    .split('\n')
    .flatMap((line) => [...line.matchAll(/`(curl [^`]*\/lab\/journal[^`]*)`/g)].map((match) => match[1]!));
  const block = /```sh\n((?:(?!```)[\s\S])*\/lab\/journal[\s\S]*?)```/.exec(section('The API at a glance'))?.[1];

  it('the commands that make a token and read its journal show the request sent with it', async () => {
    expect(block, 'an sh block in "The API at a glance" that reads /lab/journal').toBeDefined();
    const commands = block!.split('\n').filter((line) => line.startsWith('curl '));
    expect(commands.length).toBeGreaterThan(1);
    for (const command of commands.slice(0, -1)) await run(command);
    // The journal files a request just after answering it; a reader typing the next line is slower.
    const journal = await pollUntil(
      'the journal to hold the request',
      async () => JSON.parse(await run(commands.at(-1)!)) as JournalPage,
      { timeoutMs: 5_000, done: (page) => page.entries.length > 0 },
    );
    expect(journal.entries.map(({ entry }) => `${entry.method} ${entry.path}`)).toEqual(['GET /api/echo']);
  });

  it("the table's journal line answers with a journal, not an error", async () => {
    expect(journalLines.length).toBeGreaterThan(0);
    for (const line of journalLines) {
      const answer = JSON.parse(await run(line)) as JournalPage;
      expect(answer.entries, line).toBeInstanceOf(Array);
    }
  });
});
