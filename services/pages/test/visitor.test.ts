import { describe, expect, it } from 'vitest';
import { targetOf } from '../web/ts/server-view/unseen.js';
import { carriesToken, journalTarget } from '../web/ts/server-view/visitor.js';
import { PAGE, entry } from './journal-entry.fixture.js';

const TOKEN = 'V0WfZ23yo94LGz12iZW1uQ';
const OTHER_TOKEN = 'aaaaaaaaaaaaaaaaaaaaaa';
const OTHER = 'http://[::1]:8080';

describe('journalTarget', () => {
  // The api files a request's query with the visitor token taken out (contract: ServerJournalEntry.query).
  it('a URL the page tagged itself has the target the journal files it under', () => {
    const filed = entry({ path: '/lab/cors', query: 'allow-origin=none&mark=lna-1' });
    const url = `${OTHER}/lab/cors?allow-origin=none&mark=lna-1&visitor=${TOKEN}`;
    expect(journalTarget(url, PAGE, TOKEN)).toBe(targetOf(filed));
  });

  it('a token that was the only parameter leaves no query', () => {
    expect(journalTarget(`${OTHER}/lab/cors?visitor=${TOKEN}`, PAGE, TOKEN)).toBe('/lab/cors');
  });

  it('an untagged URL keeps its path and query, resolved against the page', () => {
    expect(journalTarget('/api/posts?cors=off', PAGE, TOKEN)).toBe('/api/posts?cors=off');
  });

  it('a parameter named visitor with another token is not this page load’s: kept', () => {
    expect(journalTarget(`/api/posts?visitor=${OTHER_TOKEN}`, PAGE, TOKEN)).toBe(`/api/posts?visitor=${OTHER_TOKEN}`);
  });
});

describe('carriesToken', () => {
  it.each([
    ['tagged with this token', `${OTHER}/lab/cors?mark=m&visitor=${TOKEN}`, true],
    ['tagged with another token', `${OTHER}/lab/cors?visitor=${OTHER_TOKEN}`, false],
    ['untagged', `${OTHER}/lab/cors?mark=m`, false],
    ['not a URL', 'http://[bad', false],
  ] as const)('%s', (_, url, expected) => {
    expect(carriesToken(url, PAGE, TOKEN)).toBe(expected);
  });
});
