import { describe, expect, it } from 'vitest';
import { hideUrlSecrets, hideUrlSecretsIn } from '../src/explain/url-secrets.js';

// What the URL Standard parses as a user name, a password, a query and a fragment: the parts a
// key or token travels in. Each hidden form is written by hand; WHATWG's parser (Node's URL)
// then says what each secret is, and the hidden form must hold none of it.
const secretsOf = (text: string): string[] => {
  const url = new URL(text);
  const values = [...url.searchParams.values()].filter(Boolean);
  return [url.username, url.password, url.hash.slice(1), ...values]
    .filter((part) => part.length > 0)
    .map(decodeURIComponent);
};

describe('a URL on its own', () => {
  it.each([
    ['https://user:pw@api.example.com/me', 'https://…@api.example.com/me'],
    ['https://api.example.com/me?access_token=abc&page=2', 'https://api.example.com/me?access_token=…&page=…'],
    ['https://app.example.com/cb#id_token=abc', 'https://app.example.com/cb#…'],
    ['https://USER-0:PW-1@h.example/x?key=KEY-2#FRAG-3', 'https://…@h.example/x?key=…#…'],
    // The parser ends the user name and password at the last @ of the authority: a password
    // holding an @, a space or a quote is one password.
    ['https://u:p@ss@api.example.com/', 'https://…@api.example.com/'],
    ['https://u:p w"q@api.example.com/', 'https://…@api.example.com/'],
    // Special schemes need no slashes, and a backslash ends the authority as a slash does.
    ['http:user:pw@api.example.com/', 'http:…@api.example.com/'],
    // Spaces before the scheme, which the parser drops (a value pasted with one).
    [' https://USER-4:PW-5@api.example.com/x?k=KEY-6', ' https://…@api.example.com/x?k=…'],
    ['https://api.example.com\\x?a=b', 'https://api.example.com\\x?a=…'],
    // Names are kept (they say what the request was), empty values and bare names as they are.
    ['https://api.example.com/?flag&empty=&q=Q-9', 'https://api.example.com/?flag&empty=&q=…'],
    ['https://api.example.com/items', 'https://api.example.com/items'],
    ['https://api.example.com', 'https://api.example.com'],
  ])('%s is written %s', (url, hidden) => {
    expect(hideUrlSecrets(url)).toBe(hidden);
    for (const secret of secretsOf(url)) expect(hidden).not.toContain(secret);
  });

  it('text that is not a URL keeps its words, its query values still hidden', () => {
    expect(hideUrlSecrets('not a url')).toBe('not a url');
    expect(hideUrlSecrets('api.example.com/x?key=k')).toBe('api.example.com/x?key=…');
  });
});

describe('the URLs in a text', () => {
  it('hides each URL’s secrets in a console line and keeps the words around them', () => {
    const line =
      "Access to fetch at 'https://api.example.com/me?api_key=K-1' from origin 'https://app.example.com' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.";
    expect(hideUrlSecretsIn(line)).toBe(
      "Access to fetch at 'https://api.example.com/me?api_key=…' from origin 'https://app.example.com' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.",
    );
  });

  it('Firefox’s curly quotes end a URL', () => {
    expect(hideUrlSecretsIn('was provided to “https://idp.example/frame?app=A-1” because')).toBe(
      'was provided to “https://idp.example/frame?app=…” because',
    );
  });

  it('two URLs, and one at the end of a sentence', () => {
    expect(hideUrlSecretsIn('from https://u:p@a.example/x?t=1 to https://b.example/#s.')).toBe(
      'from https://…@a.example/x?t=… to https://b.example/#….',
    );
  });

  it('a value of punctuation, or ending in it, before the end of a sentence is hidden', () => {
    expect(hideUrlSecretsIn('see https://a.example/x?t=!!!. Then')).toBe('see https://a.example/x?t=…. Then');
    expect(hideUrlSecretsIn('see https://a.example/x?t=K-1)!?;')).toBe('see https://a.example/x?t=…;');
    expect(hideUrlSecretsIn('back to https://a.example/cb#!!), now')).toBe('back to https://a.example/cb#…, now');
    // One mark is the sentence's: the value before it is hidden, the mark and the bracket shown.
    expect(hideUrlSecretsIn('(at https://a.example/x?t=K-2)')).toBe('(at https://a.example/x?t=…)');
    expect(hideUrlSecretsIn('at https://a.example/x?t=.')).toBe('at https://a.example/x?t=.');
  });

  it('URLs joined by commas alone: each one’s user name and password hidden', () => {
    expect(hideUrlSecretsIn('origins http://u:p@a.example,https://v:q@b.example/x?k=1,http://c.example/a,b')).toBe(
      'origins http://…@a.example,https://…@b.example/x?k=…,http://c.example/a,b',
    );
  });

  it('an @ outside a URL is no user name: words, addresses and a URL without one stay', () => {
    const text = "mail me@example.com about 'https://api.example.com/x' (see https://a.example/)";
    expect(hideUrlSecretsIn(text)).toBe(text);
  });
});
