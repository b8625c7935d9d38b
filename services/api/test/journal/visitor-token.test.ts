import { describe, expect, it } from 'vitest';
import { takeVisitorToken } from '../../src/journal/visitor-token.js';

const TOKEN = 'AbCdEfGhIjKlMnOp_-12';

describe('takeVisitorToken: the token found in a raw query, and the query without it', () => {
  it.each([
    ['alone', `visitor=${TOKEN}`, { token: TOKEN, rest: '' }],
    ['first', `visitor=${TOKEN}&cors=off`, { token: TOKEN, rest: 'cors=off' }],
    ['last', `cors=off&visitor=${TOKEN}`, { token: TOKEN, rest: 'cors=off' }],
    ['in the middle', `a=1&visitor=${TOKEN}&b=2`, { token: TOKEN, rest: 'a=1&b=2' }],
    ['after a parameter ending in "visitor"', `xvisitor=1&visitor=${TOKEN}`, { token: TOKEN, rest: 'xvisitor=1' }],
    ['the rest kept as sent, encoding and all', `q=a%20b+c&visitor=${TOKEN}`, { token: TOKEN, rest: 'q=a%20b+c' }],
    ['the first of two', `visitor=${TOKEN}&visitor=${TOKEN}x`, { token: TOKEN, rest: `visitor=${TOKEN}x` }],
  ])('%s', (_, query, expected) => {
    expect(takeVisitorToken(query)).toEqual(expected);
  });

  it.each([
    ['no query', ''],
    ['no visitor parameter', 'cors=off'],
    ['only a parameter ending in "visitor"', `xvisitor=${TOKEN}`],
    ['a token too short (15 characters, under 96 bits)', 'visitor=AbCdEfGhIjKlMnO'],
    ['a token too long (65 characters)', `visitor=${'a'.repeat(65)}`],
    ['a character outside base64url', `visitor=${TOKEN.slice(1)}.`],
    ['a percent-encoded token', `visitor=${TOKEN.slice(2)}%2D`],
    ['an empty value', 'visitor=&cors=off'],
  ])('none for %s', (_, query) => {
    expect(takeVisitorToken(query)).toBeNull();
  });
});
