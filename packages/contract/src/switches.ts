/**
 * A lab's switches in a query string: each a parameter with a fixed list of choices, the right
 * one first (the default). One reader for every lab that has them (the MCP lab, the identity
 * provider), so each says a bad parameter the same way.
 */
export type SwitchTable = Readonly<Record<string, readonly string[]>>;

export type SwitchesRead<S> = { ok: true; settings: S } | { ok: false; parameter: string; error: string };

/**
 * A query string read: the settings (defaults where a switch is absent), or the first parameter
 * that is unknown, repeated or not one of its choices. tags are parameters taken as they are,
 * read by the caller (a visitor token, a request's mark).
 */
export function readSwitches<S>(
  query: URLSearchParams,
  switches: SwitchTable,
  defaults: S,
  tags: readonly string[],
): SwitchesRead<S> {
  const settings: Record<string, string> = { ...(defaults as Record<string, string>) };
  for (const name of new Set(query.keys())) {
    const parameter = name.slice(0, 64);
    if (tags.includes(name)) continue;
    const values = query.getAll(name);
    if (values.length > 1) return { ok: false, parameter, error: `${parameter} is given ${values.length} times` };
    const choices = switches[name];
    if (choices === undefined)
      return {
        ok: false,
        parameter,
        error: `unknown parameter ${parameter}; known: ${[...Object.keys(switches), ...tags].join(', ')}`,
      };
    if (!choices.includes(values[0]!))
      return { ok: false, parameter, error: `${parameter} must be one of ${choices.join(', ')}` };
    settings[name] = values[0]!;
  }
  return { ok: true, settings: settings as S };
}
