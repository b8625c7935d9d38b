/** What JSON.stringify does to values JSON cannot hold, computed live (pure; unit tested). */

export interface JsonCase {
  label: string;
  make: () => unknown;
  /** The spec's answer as an object property and as an array element. */
  asProperty: string;
  asElement: string;
}

export function stringifyOutcome(value: () => unknown): string {
  try {
    const text = JSON.stringify(value());
    return text === undefined ? 'undefined (not a string)' : text;
  } catch (err) {
    return `throws ${(err as Error).name}`;
  }
}

const ISO = '"2024-01-02T03:04:05.000Z"';
const when = () => new Date(Date.UTC(2024, 0, 2, 3, 4, 5));

export const JSON_CASES: JsonCase[] = [
  { label: 'Date', make: when, asProperty: `{"v":${ISO}}`, asElement: `[${ISO}]` },
  { label: 'undefined', make: () => undefined, asProperty: '{}', asElement: '[null]' },
  { label: 'function', make: () => () => 1, asProperty: '{}', asElement: '[null]' },
  { label: 'symbol', make: () => Symbol('s'), asProperty: '{}', asElement: '[null]' },
  { label: 'Infinity', make: () => Infinity, asProperty: '{"v":null}', asElement: '[null]' },
  { label: '-Infinity', make: () => -Infinity, asProperty: '{"v":null}', asElement: '[null]' },
  { label: 'NaN', make: () => NaN, asProperty: '{"v":null}', asElement: '[null]' },
  { label: 'Map', make: () => new Map([['a', 1]]), asProperty: '{"v":{}}', asElement: '[{}]' },
  { label: 'Set', make: () => new Set([1]), asProperty: '{"v":{}}', asElement: '[{}]' },
  { label: 'BigInt', make: () => BigInt(1), asProperty: 'throws TypeError', asElement: 'throws TypeError' },
  {
    label: 'self-referencing object',
    make: () => {
      const self: Record<string, unknown> = {};
      self.me = self;
      return self;
    },
    asProperty: 'throws TypeError',
    asElement: 'throws TypeError',
  },
];

export interface JsonRow {
  label: string;
  asProperty: string;
  asElement: string;
  agrees: boolean;
}

export function computeJsonTable(): JsonRow[] {
  return JSON_CASES.map((item) => {
    const asProperty = stringifyOutcome(() => ({ v: item.make() }));
    const asElement = stringifyOutcome(() => [item.make()]);
    return {
      label: item.label,
      asProperty,
      asElement,
      agrees: asProperty === item.asProperty && asElement === item.asElement,
    };
  });
}
