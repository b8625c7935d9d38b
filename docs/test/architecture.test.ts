import { describe, expect, it } from 'vitest';
import { citations, missingNames, readDoc } from './citations.js';

/**
 * docs/architecture.md points at the code as "`path`: `name`, `name`": a file and the names it
 * defines. A move or a rename that forgets the page leaves a newcomer at a dead end; this test
 * finds every such citation and checks that the file is there and that each name is written in it.
 */
const cited = citations(readDoc('docs/architecture.md'));

describe('docs/architecture.md points at real code', () => {
  it('cites files at all (the pattern still matches the page)', () => {
    expect(cited.length).toBeGreaterThan(100);
  });

  it.each(cited.map((c) => [`line ${c.line}: ${c.file}: ${c.names.join(', ')}`, c] as const))('%s', (_, c) => {
    const { files, missing } = missingNames(c);
    expect(files, `${c.file} (line ${c.line}) is not a file`).not.toEqual([]);
    expect(missing, `${files.join(' or ')} (line ${c.line}) does not define ${missing.join(', ')}`).toEqual([]);
  });
});
