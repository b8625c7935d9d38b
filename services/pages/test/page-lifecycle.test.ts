import { describe, expect, it } from 'vitest';
import { judgeTrip, type LifecycleEvent } from '../web/ts/rules/page-lifecycle.js';

/** Shorthand: [type, persisted, visibility, document]. */
type Row = [LifecycleEvent['type'], boolean | null, LifecycleEvent['visibility'], LifecycleEvent['document']];
const events = (rows: Row[]): LifecycleEvent[] =>
  rows.map(([type, persisted, visibility, document]) => ({ type, persisted, visibility, document }));

const LEFT_WITH_UNLOAD: Row[] = [
  ['beforeunload', null, 'visible', 'left'],
  ['pagehide', false, 'visible', 'left'],
  ['visibilitychange', null, 'hidden', 'left'],
  ['unload', null, 'hidden', 'left'],
];
const LEFT_INTO_CACHE: Row[] = [
  ['beforeunload', null, 'visible', 'left'],
  ['pagehide', true, 'visible', 'left'],
  ['visibilitychange', null, 'hidden', 'left'],
];

describe('judgeTrip: the order SPEC.md gives for leaving and coming back', () => {
  it.each<[string, Row[], { restored: boolean; unloadRan: boolean; inOrder: boolean }]>([
    [
      'left with unload, loaded again',
      [...LEFT_WITH_UNLOAD, ['pageshow', false, 'visible', 'new']],
      { restored: false, unloadRan: true, inOrder: true },
    ],
    [
      'left with no unload listener, loaded again',
      [...LEFT_WITH_UNLOAD.slice(0, 3), ['pageshow', false, 'visible', 'new']],
      { restored: false, unloadRan: false, inOrder: true },
    ],
    [
      'cached, visibilitychange before pageshow (as both engines do)',
      [...LEFT_INTO_CACHE, ['visibilitychange', null, 'visible', 'left'], ['pageshow', true, 'visible', 'left']],
      { restored: true, unloadRan: false, inOrder: true },
    ],
    [
      'cached, pageshow before visibilitychange (the spec names no order)',
      [...LEFT_INTO_CACHE, ['pageshow', true, 'visible', 'left'], ['visibilitychange', null, 'visible', 'left']],
      { restored: true, unloadRan: false, inOrder: true },
    ],
    [
      'unload before pagehide',
      [
        ['beforeunload', null, 'visible', 'left'],
        ['unload', null, 'hidden', 'left'],
        ['pagehide', false, 'visible', 'left'],
        ['visibilitychange', null, 'hidden', 'left'],
        ['pageshow', false, 'visible', 'new'],
      ],
      { restored: false, unloadRan: true, inOrder: false },
    ],
    [
      'pagehide after the page was already hidden',
      [
        ['beforeunload', null, 'visible', 'left'],
        ['visibilitychange', null, 'hidden', 'left'],
        ['pagehide', false, 'hidden', 'left'],
        ['pageshow', false, 'visible', 'new'],
      ],
      { restored: false, unloadRan: false, inOrder: false },
    ],
    [
      'cached, yet unload ran',
      [
        ...LEFT_INTO_CACHE,
        ['unload', null, 'hidden', 'left'],
        ['pageshow', true, 'visible', 'left'],
        ['visibilitychange', null, 'visible', 'left'],
      ],
      { restored: true, unloadRan: true, inOrder: false },
    ],
    [
      'restored without the visibilitychange back to visible',
      [...LEFT_INTO_CACHE, ['pageshow', true, 'visible', 'left']],
      { restored: true, unloadRan: false, inOrder: false },
    ],
    ['never came back', LEFT_WITH_UNLOAD, { restored: false, unloadRan: true, inOrder: false }],
  ])('%s', (_name, rows, expected) => {
    expect(judgeTrip(events(rows))).toMatchObject(expected);
  });

  it('writes each half as the page shows it', () => {
    const verdict = judgeTrip(events([...LEFT_WITH_UNLOAD, ['pageshow', false, 'visible', 'new']]));
    expect(verdict.leaving).toEqual([
      'beforeunload (visible)',
      'pagehide persisted=false (visible)',
      'visibilitychange (hidden)',
      'unload (hidden)',
    ]);
    expect(verdict.returning).toEqual(['pageshow persisted=false (visible)']);
  });
});
