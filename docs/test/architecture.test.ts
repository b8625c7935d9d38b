import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md points at the code as "`path`: `name`, `name`": a file and the names it
 * defines. A move or a rename that forgets the page leaves a newcomer at a dead end; this test
 * finds every such citation and checks that the file is there and that each name is written in it.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const doc = readFileSync(`${root}docs/architecture.md`, 'utf8');
const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean);

/**
 * The files a citation can mean: its path from the repository's root, or, in a section that has
 * named its folder already (`lab-cors.ts` under "services/api/src/lab/"), the files whose path ends so.
 */
function resolve(cited: string): string[] {
  return tracked.includes(cited) ? [cited] : tracked.filter((file) => file.endsWith(`/${cited}`));
}

interface Citation {
  file: string;
  names: string[];
  line: number;
}

/** "`a/b.ts`: `x`, `y` (note, `z`)": the file, and the names listed right after it (not those in the note). */
function citations(text: string): Citation[] {
  const found: Citation[] = [];
  text.split('\n').forEach((lineText, index) => {
    for (const match of lineText.matchAll(/`([\w./-]+\.(?:ts|mjs|js|json|html|css))`: ((?:`[^`]+`(?:, )?)+)/g)) {
      const names = [...match[2]!.matchAll(/`([^`]+)`/g)].map((name) => name[1]!);
      found.push({ file: match[1]!, names, line: index + 1 });
    }
  });
  return found;
}

/** Whether a name is written in a file as a definition, a member, an id or a literal. */
function isWritten(source: string, name: string): boolean {
  if (!/^[\w$]+$/.test(name)) return source.includes(name.replace(/…/g, '').replace(/\)$/, ''));
  const word = `(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`;
  return new RegExp(
    [
      `(?:function\\*?|const|let|var|class|interface|type|enum)\\s+${word}`,
      `${word}\\s*[(:=?]`,
      `(?:export|import)\\s*(?:type\\s*)?\\{[^}]*${word}`,
      `['"\`]${word}['"\`]`,
      `\\.${word}\\b`,
    ].join('|'),
  ).test(source);
}

const cited = citations(doc);

describe('docs/architecture.md points at real code', () => {
  it('cites files at all (the pattern still matches the page)', () => {
    expect(cited.length).toBeGreaterThan(100);
  });

  it.each(cited.map((c) => [`line ${c.line}: ${c.file}: ${c.names.join(', ')}`, c] as const))('%s', (_, c) => {
    const files = resolve(c.file);
    expect(files, `${c.file} (line ${c.line}) is not a file`).not.toEqual([]);
    // A short path two folders share (lab-cors.ts in the api and in the contract) means the one defining the names.
    const missingIn = files.map((file) => {
      const source = readFileSync(`${root}${file}`, 'utf8');
      return c.names.filter((name) => !isWritten(source, name));
    });
    const missing = missingIn.find((names) => names.length === 0) ?? missingIn[0]!;
    expect(missing, `${files.join(' or ')} (line ${c.line}) does not define ${missing.join(', ')}`).toEqual([]);
  });
});
