import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * How the docs point at the code, "`path`: `name`, `name`" (a file and the names it defines), and
 * how a test checks such a citation: shared by the tests of docs/architecture.md and CONTRIBUTING.md.
 */
export const root = fileURLToPath(new URL('../../', import.meta.url));

export const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean);

export const readDoc = (path: string) => readFileSync(`${root}${path}`, 'utf8');

/**
 * The files a citation can mean: its path from the repository's root, or, in a section that has
 * named its folder already (`lab-cors.ts` under "services/api/src/lab/"), the files whose path ends so.
 */
export function resolve(cited: string): string[] {
  return tracked.includes(cited) ? [cited] : tracked.filter((file) => file.endsWith(`/${cited}`));
}

export interface Citation {
  file: string;
  names: string[];
  line: number;
}

/** "`a/b.ts`: `x`, `y` (note, `z`)": the file, and the names listed right after it (not those in the note). */
export function citations(text: string): Citation[] {
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
export function isWritten(source: string, name: string): boolean {
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

/** The names of a citation its file does not define (a short path two folders share: the one defining them). */
export function missingNames(citation: Citation): { files: string[]; missing: string[] } {
  const files = resolve(citation.file);
  const missingIn = files.map((file) => {
    const source = readFileSync(`${root}${file}`, 'utf8');
    return citation.names.filter((name) => !isWritten(source, name));
  });
  return { files, missing: missingIn.find((names) => names.length === 0) ?? missingIn[0] ?? citation.names };
}
