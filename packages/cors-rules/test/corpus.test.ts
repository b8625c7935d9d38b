import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readEvidence } from '../src/explain/index.js';
import { readConsoleMessage } from '../src/explain/console-messages.js';

/**
 * The console corpus, recorded from the engines by the e2e suite (every ready case of the
 * playground, `npm run engines:record`): every line each engine printed must be read, and the
 * first line of a refused case explained with the rule the case was built to show (the page's own
 * prediction of it, from the spec).
 */
interface Corpus {
  engine: string;
  version: string;
  cases: Record<string, { messages: string[]; failureRule: string | null; readable: boolean }>;
}

/**
 * Rules an engine words alike, so that its message alone cannot tell them apart: written from the
 * engine's sources (WebKit's CrossOriginAccessControl.cpp says "Origin … is not allowed by
 * Access-Control-Allow-Origin" for a missing header and for another origin, and its loader prints
 * only "cannot load … due to access control checks" for a preflight that failed on its status or a
 * redirect). Such a message is explained with every rule of its group, each with its playground
 * case, and says what would tell them apart.
 */
const WORDED_ALIKE: Record<string, string[][]> = {
  chromium: [],
  firefox: [],
  webkit: [
    ['no-allow-origin', 'origin-mismatch'],
    ['preflight-status', 'preflight-redirect'],
  ],
};

const folder = fileURLToPath(new URL('./corpus/', import.meta.url));
const corpora = readdirSync(folder)
  .filter((name) => /^console-.*\.json$/.test(name))
  .map((name) => JSON.parse(readFileSync(`${folder}${name}`, 'utf8')) as Corpus);

describe.each(corpora.map((corpus) => [`${corpus.engine} ${corpus.version}`, corpus] as const))(
  'what %s printed for the playground’s ready cases',
  (_name, corpus) => {
    const refused = Object.entries(corpus.cases).filter(
      ([, c]) => !c.readable && c.failureRule && c.messages.length > 0,
    );

    it('holds a refused case for every rule the ready cases show', () => {
      expect(refused.length).toBeGreaterThan(10);
    });

    it.each(Object.entries(corpus.cases).flatMap(([id, c]) => c.messages.map((line) => [id, line] as const)))(
      '%s: every line is read',
      (_id, line) => {
        expect(readConsoleMessage(line)).not.toBeNull();
      },
    );

    it.each(refused)('%s: explained with the rule the case shows, and a playground case', (_id, c) => {
      const [first] = readEvidence(c.messages.join('\n')).explanations;
      expect(first!.engine).toBe(corpus.engine);
      expect(first!.verdict).toBe('refused');
      const alike = WORDED_ALIKE[corpus.engine]!.find((group) => group.includes(c.failureRule!));
      if (alike) {
        expect(first!.rule).toBeNull();
        expect(first!.candidates?.map((candidate) => candidate.rule)).toEqual(alike);
        for (const candidate of first!.candidates!) expect(candidate.playground).not.toEqual({});
        expect(first!.unknowns.length).toBeGreaterThan(0);
      } else {
        expect(first!.rule).toBe(c.failureRule);
        expect(first!.playground).not.toBeNull();
        expect(first!.fix).not.toBeNull();
      }
    });
  },
);
