import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { citations, isWritten, missingNames, readDoc, resolve, root, tracked } from './citations.js';

/**
 * CONTRIBUTING.md's recipes name the files to touch and what to write in each. A recipe that names
 * a file that moved, or a function that was renamed, sends a newcomer looking for what is not
 * there: this test checks every path the page names, every "`path`: `name`" citation, and, in the
 * command's recipes, that each name in code is written in one of the files those recipes name.
 */
const doc = readDoc('CONTRIBUTING.md');

/** Every `…` span of a text, with its line. */
const spans = (text: string, firstLine = 1) =>
  text
    .split('\n')
    .flatMap((lineText, index) =>
      [...lineText.matchAll(/`([^`\n]+)`/g)].map((match) => ({ code: match[1]!, line: index + firstLine })),
    );

/** A span that is a path: a folder (ends with /) or a file with an extension; none with a placeholder. */
const isPath = (code: string) =>
  /^[\w.@-]+(\/[\w.@-]+)*\/?$/.test(code) &&
  (code.endsWith('/') || /\/|\.\w+$/.test(code)) &&
  !/^\.|^\w+\.\w+\(/.test(code);

/** Files the build makes (npm run build), named by the recipes, not in git. */
const BUILT = ['bin/origin-lab.js'];

function exists(path: string): boolean {
  if (BUILT.includes(path)) return true;
  if (path.endsWith('/')) return tracked.some((file) => file.startsWith(path) || file.includes(`/${path}`));
  return resolve(path).length > 0 || tracked.some((file) => file.startsWith(`${path}/`));
}

const paths = spans(doc).filter(({ code }) => isPath(code) && /\.(ts|mjs|js|json|html|css|md|sh|yml)$|\/$/.test(code));

/** The command's recipes: from their title to the next section of the page. */
const start = doc.indexOf('## How to change the command');
const end = doc.indexOf('\n## ', start + 1);
const recipes = doc.slice(start, end);
const recipesLine = doc.slice(0, start).split('\n').length;
const recipeFiles = [
  ...new Set(
    spans(recipes)
      .filter(({ code }) => isPath(code) && /\.(ts|mjs|js|html)$/.test(code))
      .flatMap(({ code }) => resolve(code)),
  ),
].map((file) => readFileSync(`${root}${file}`, 'utf8'));
/** Names in code: identifiers (a word with a capital or an underscore inside, or a call), not prose words in backticks. */
const names = spans(recipes, recipesLine).filter(({ code }) =>
  /^[a-z]+[A-Z]\w*$|^[A-Z][a-z]+[A-Z]\w*$|^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(code),
);

describe('CONTRIBUTING.md points at real code', () => {
  it('names paths, and the command recipes name code (the patterns still match the page)', () => {
    expect(paths.length).toBeGreaterThan(80);
    expect(start).toBeGreaterThan(0);
    expect(names.length).toBeGreaterThan(40);
  });

  it.each(paths.map((p) => [`line ${p.line}: ${p.code}`, p.code] as const))('%s exists', (_, path) => {
    expect(exists(path), `${path} is neither a file nor a folder of the repository`).toBe(true);
  });

  it.each(citations(doc).map((c) => [`line ${c.line}: ${c.file}: ${c.names.join(', ')}`, c] as const))('%s', (_, c) => {
    const { files, missing } = missingNames(c);
    expect(files, `${c.file} (line ${c.line}) is not a file`).not.toEqual([]);
    expect(missing, `${files.join(' or ')} (line ${c.line}) does not define ${missing.join(', ')}`).toEqual([]);
  });

  it.each(names.map((n) => [`line ${n.line}: ${n.code}`, n.code] as const))(
    '%s is written in a file the command recipes name',
    (_, name) => {
      expect(recipeFiles.some((source) => isWritten(source, name))).toBe(true);
    },
  );
});
