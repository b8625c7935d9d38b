import { describe, expect, it } from 'vitest';
import { hostileCells, yourCells, type Cell } from '../src/check/cells.js';
import { findingsOf } from '../src/check/findings.js';
import { isUnreachable, replay } from '../src/check/replay.js';
import type { ExchangeRecord } from '../src/check/run-check.js';
import {
  expressExactAllowlist,
  expressFixedAllowOrigin,
  expressReflectedWithoutVary,
  koaCorsDefaults,
  YOURS,
  type Fixture,
} from './fixtures.js';

// The findings that read only what the check asked the target itself (its own OPTIONS and GET
// with each origin's Origin), without an engine: the fixtures' real answers through replay, then
// findingsOf with no engine run. What engines do is the check-*.test.ts files'. Expectations
// written from the rules: a permission that follows the Origin needs Vary: Origin (low: it takes a
// shared cache between to hand it on); one that does not follow it needs nothing; * is any site.

const ATTACKER = 'http://attacker.test';

/** The check's own exchanges with a fixture: your origin's default cells, and an attacker's two. */
async function askedItself(fixture: Promise<Fixture>): Promise<ExchangeRecord[]> {
  const server = await fixture;
  try {
    const target = new URL(server.url);
    const plan: [string, Cell[]][] = [
      [YOURS, yourCells({ credentials: 'both', headers: [['X-Origin-Lab-Check', '1']], methods: [], body: 'json' })],
      [ATTACKER, hostileCells({ methods: [], body: 'json' })],
    ];
    const records: ExchangeRecord[] = [];
    for (const [origin, cells] of plan)
      for (const cell of cells) {
        const replayed = await replay(target, origin, cell, 5_000);
        if (isUnreachable(replayed)) throw new Error(`${server.url} did not answer: ${replayed.message}`);
        records.push({ origin, cell: cell.id, exchange: replayed.exchange, redirectedTo: replayed.redirectedTo });
      }
    return records;
  } finally {
    await server.stop();
  }
}

const kindsOf = async (fixture: Promise<Fixture>) =>
  findingsOf([], await askedItself(fixture), { yours: [YOURS], lab: 'http://localhost:8080' }).map(
    ({ kind, severity }) => ({ kind, severity }),
  );

describe('check: the findings of its own exchanges, without an engine', () => {
  it('an exact allowlist with Vary (express cors): nothing to say', async () => {
    expect(await kindsOf(expressExactAllowlist())).toEqual([]);
  });

  it('a reflected Origin without Vary: Origin: a shared cache between may hand the permission on (low)', async () => {
    expect(await kindsOf(expressReflectedWithoutVary())).toEqual([{ kind: 'missing-vary', severity: 'low' }]);
  });

  it('one fixed Allow-Origin for every request, without Vary: nothing depends on the Origin, nothing to say', async () => {
    expect(await kindsOf(expressFixedAllowOrigin())).toEqual([]);
  });

  it('@koa/cors defaults (*, no credentials): any site reads, said once as info', async () => {
    expect(await kindsOf(koaCorsDefaults())).toEqual([{ kind: 'wildcard', severity: 'info' }]);
  });
});
