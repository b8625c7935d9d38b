import { describe, expect, it } from 'vitest';
import { ConfigError, defaultsOf, readSettings, rowsOf, setting, settingsMarkdown, variablesOf } from '../src/index.js';

const TABLE = {
  wait: {
    min: 0,
    max: setting.int('WAIT_MAX', 100, 0, 1_000, { doc: 'largest wait' }),
    default: setting.int('WAIT_DEFAULT', 50, 0, 'WAIT_MAX', { doc: 'wait when absent' }),
  },
  seed: setting.optionalInt('SEED', 0, 10, { doc: 'a seed', shown: 'random' }),
  names: setting.list('NAMES', ['a', 'b'], { doc: 'some names' }),
  shared: setting.group(
    {
      url: setting.text('SHARED_URL', '', { doc: 'where' }),
      timeoutMs: setting.int('SHARED_TIMEOUT_MS', 1_000, 10, 60_000, { doc: 'how long' }),
    },
    (shared) => (shared.url === '' ? null : shared),
  ),
};

describe('a settings table', () => {
  it('gives its defaults, constants included, as fresh values', () => {
    const defaults = defaultsOf(TABLE);
    expect(defaults).toEqual({
      wait: { min: 0, max: 100, default: 50 },
      seed: undefined,
      names: ['a', 'b'],
      shared: null,
    });
    defaults.names.push('c');
    expect(defaultsOf(TABLE).names).toEqual(['a', 'b']);
  });

  it('reads each variable, an earlier row bounding a later one', () => {
    expect(readSettings(TABLE, { WAIT_MAX: '20' }).wait).toEqual({ min: 0, max: 20, default: 20 });
    expect(readSettings(TABLE, { WAIT_MAX: '20', WAIT_DEFAULT: '5' }).wait.default).toBe(5);
    expect(() => readSettings(TABLE, { WAIT_MAX: '20', WAIT_DEFAULT: '30' })).toThrow(
      new ConfigError('WAIT_DEFAULT must be from 0 to 20; got 30'),
    );
    expect(readSettings(TABLE, { SEED: '7', NAMES: 'x, y' })).toMatchObject({ seed: 7, names: ['x', 'y'] });
    expect(readSettings(TABLE, { SHARED_URL: 'redis://r' }).shared).toEqual({ url: 'redis://r', timeoutMs: 1_000 });
  });

  it('takes a default the caller gives instead, by variable', () => {
    expect(readSettings(TABLE, {}, { NAMES: ['z'] }).names).toEqual(['z']);
    expect(readSettings(TABLE, { NAMES: 'q' }, { NAMES: ['z'] }).names).toEqual(['q']);
  });

  it('lists its rows with their paths, names their variables, and writes one Markdown line per variable', () => {
    expect(rowsOf(TABLE).map(({ path, row }) => `${path}=${row.env}`)).toEqual([
      'wait.max=WAIT_MAX',
      'wait.default=WAIT_DEFAULT',
      'seed=SEED',
      'names=NAMES',
      'shared.url=SHARED_URL',
      'shared.timeoutMs=SHARED_TIMEOUT_MS',
    ]);
    expect(variablesOf(TABLE.wait)).toEqual({ max: 'WAIT_MAX', default: 'WAIT_DEFAULT' });
    expect(settingsMarkdown([TABLE]).split('\n')).toEqual([
      '| Variable | Default | Accepts | Meaning |',
      '|---|---|---|---|',
      '| `WAIT_MAX` | 100 | 0 to 1000 | largest wait |',
      '| `WAIT_DEFAULT` | 50 | 0 to WAIT_MAX | wait when absent |',
      '| `SEED` | random | 0 to 10 | a seed |',
      '| `NAMES` | `a,b` | a comma-separated list | some names |',
      '| `SHARED_URL` | unset | text | where |',
      '| `SHARED_TIMEOUT_MS` | 1000 | 10 to 60000 | how long |',
    ]);
  });
});
