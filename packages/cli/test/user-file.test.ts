import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CommandError } from '../src/terminal.js';
import { readUserFile, sizeText } from '../src/user-file.js';

// A file named on the command line is read within its bound, whatever kind of file it is.

const scratch = mkdtempSync(join(tmpdir(), 'origin-lab-user-file-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The one line a refusal says, and its exit code (2: bad usage). */
function refusal(file: string, maxBytes: number): [number, string] {
  try {
    readUserFile(file, `--opt ${file}`, '--opt', maxBytes);
  } catch (err) {
    expect(err).toBeInstanceOf(CommandError);
    return [(err as CommandError).exitCode, (err as Error).message];
  }
  throw new Error(`${file} was read`);
}

describe('a file the user names', () => {
  it('is read whole as UTF-8 up to its bound, the bound included', () => {
    const file = join(scratch, 'ten.txt');
    writeFileSync(file, 'héllo wörl'); // 12 bytes
    expect(readUserFile(file, 'x', 'x', 12)).toBe('héllo wörl');
  });

  it('missing, or a folder: said in words, not in an error code', () => {
    expect(refusal(join(scratch, 'nope.json'), 100)).toEqual([2, `--opt ${join(scratch, 'nope.json')}: no such file`]);
    expect(refusal(scratch, 100)).toEqual([2, `--opt ${scratch}: not a file`]);
  });

  it('a file over its bound is refused, with the bound in its own unit', () => {
    const file = join(scratch, 'big.json');
    writeFileSync(file, 'x'.repeat(2049));
    expect(refusal(file, 2048)).toEqual([2, `--opt ${file}: over 2 KB, the most --opt reads`]);
    expect(refusal(file, 10)).toEqual([2, `--opt ${file}: over 10 bytes, the most --opt reads`]);
  });

  it('a device that never ends is refused once past the bound', () => {
    expect(refusal('/dev/zero', 1024 * 1024)).toEqual([2, '--opt /dev/zero: over 1 MB, the most --opt reads']);
  });

  it('a pipe (as <(command) gives) is read to its end', async () => {
    const fifo = join(scratch, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', 'printf "from a pipe" > "$1"', 'sh', fifo], { stdio: 'ignore' });
    try {
      expect(readUserFile(fifo, 'x', 'x', 100)).toBe('from a pipe');
    } finally {
      await new Promise((resolve) => writer.once('exit', resolve));
    }
  });

  it('sizes read as written: MB, KB, bytes', () => {
    expect([sizeText(50 * 2 ** 20), sizeText(256 * 1024), sizeText(1_048_576), sizeText(1000)]).toEqual([
      '50 MB',
      '256 KB',
      '1 MB',
      '1000 bytes',
    ]);
  });
});
