import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../src/log.js';
import { linesPerTurn } from '../src/lines-per-turn.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

// Each writer listens for the process's exit (a server has one); the tests' writers' listeners
// are removed after each test, so that the files run after this one in its worker do not inherit them.
type ExitListener = (code: number) => void;
const exitListenersNow = () => process.listeners('exit') as ExitListener[];
let exitListeners: ExitListener[] = [];
beforeEach(() => {
  exitListeners = exitListenersNow();
});
afterEach(() => {
  for (const listener of exitListenersNow())
    if (!exitListeners.includes(listener)) process.removeListener('exit', listener);
});

/** A logger over linesPerTurn and the writes it made, each split into its lines' messages. */
function recorded() {
  const writes: string[][] = [];
  const destination = linesPerTurn({
    write: (text: string) =>
      writes.push(
        text
          .trimEnd()
          .split('\n')
          .map((line) => (JSON.parse(line) as { msg: string }).msg),
      ),
  });
  return { logger: createLogger(destination), destination, writes };
}

describe('linesPerTurn: the lines of one turn of the event loop in one write', () => {
  it.each([
    { turns: [['a']], writes: [['a']] },
    { turns: [['a', 'b', 'c']], writes: [['a', 'b', 'c']] },
    { turns: [['a', 'b'], ['c'], ['d', 'e']], writes: [['a', 'b'], ['c'], ['d', 'e']] },
    { turns: [['a'], [], ['b']], writes: [['a'], ['b']] },
  ])('lines logged in turns $turns are written as $writes', async ({ turns, writes: expected }) => {
    const { logger, writes } = recorded();
    for (const turn of turns) {
      for (const msg of turn) logger.info(msg);
      await nextTurn();
    }
    expect(writes).toEqual(expected);
  });

  it('writes nothing while the turn that logged is still running', () => {
    const { logger, writes } = recorded();
    logger.info('a');
    logger.info('b');
    expect(writes).toEqual([]);
  });

  it('flush() writes what is kept at once, and nothing when nothing is kept', async () => {
    const { logger, destination, writes } = recorded();
    destination.flush();
    logger.info('a');
    destination.flush();
    expect(writes).toEqual([['a']]);
    await nextTurn();
    expect(writes).toEqual([['a']]);
  });
});

describe('the stdout log of a process that ends in the turn that logged (built server-kit)', () => {
  const serverKit = fileURLToPath(new URL('../dist/index.js', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'origin-lab-lines-per-turn-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const LINES = 2_000;

  it.each([
    { ending: 'process.exit(0)', code: 0, to: 'a pipe' },
    { ending: 'process.exit(0)', code: 0, to: 'a file' },
    { ending: 'throw new Error("boom")', code: 1, to: 'a pipe' },
    { ending: '', code: 0, to: 'a file' },
  ])('ended by $ending, stdout to $to: every line is there, whole', ({ ending, code, to }) => {
    const script = [
      `const { stdoutLog } = await import(${JSON.stringify(serverKit)});`,
      `for (let i = 0; i < ${LINES}; i++) stdoutLog({ msg: 'line ' + i + ' – ü ✓' });`,
      ending,
    ].join('\n');
    const file = join(dir, `${to.replace(' ', '-')}-${code}.log`);
    const fd = to === 'a file' ? openSync(file, 'w') : 'pipe';
    try {
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        stdio: ['ignore', fd, 'pipe'],
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(run.error).toBeUndefined();
      expect(run.status, run.stderr).toBe(code);
      const stdout = to === 'a file' ? readFileSync(file, 'utf8') : run.stdout;
      const lines = stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(LINES);
      lines.forEach((line, i) => expect((JSON.parse(line) as { msg: string }).msg).toBe(`line ${i} – ü ✓`));
    } finally {
      if (typeof fd === 'number') closeSync(fd);
    }
  });
});
