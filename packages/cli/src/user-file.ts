/**
 * A file the user names on the command line (explain's evidence, --expect, --baseline, --session,
 * --ca), read whole but never past its bound. A folder is refused by its kind; a regular file by
 * its size, before a byte is read; anything else (a pipe such as `<(pbpaste)`, a device such as
 * /dev/zero) is read in pieces and refused once it gives more than the bound. What is wrong is one
 * line that names the file, and never quotes what it holds.
 */
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CommandError } from './terminal.js';

const PIECE_BYTES = 64 * 1024;

/** A size in the unit it was written in: 50 MB, 256 KB, 10 bytes. */
export function sizeText(bytes: number): string {
  if (bytes >= 2 ** 20 && bytes % 2 ** 20 === 0) return `${bytes / 2 ** 20} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

/**
 * The text of file, at most maxBytes of it. `label` starts every message ("--ca ./ca.pem", or the
 * file's own name for explain) and `reader` says whose bound it is ("--ca", "explain").
 */
export function readUserFile(file: string, label: string, reader: string, maxBytes: number): string {
  const bad = (what: string) => new CommandError(`${label}: ${what}`);
  const over = () => bad(`over ${sizeText(maxBytes)}, the most ${reader} reads`);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    throw bad(unreadable(err));
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw bad('not a file');
    if (stat.isFile() && stat.size > maxBytes) throw over();
    // One buffer to read into, and a copy of what each read gave: a pipe gives a few KB a read,
    // and a view of a fresh 64 KB buffer would keep all of it alive.
    const piece = Buffer.alloc(PIECE_BYTES);
    const pieces: Buffer[] = [];
    let total = 0;
    for (;;) {
      const read = readSync(fd, piece, 0, PIECE_BYTES, null);
      if (read === 0) break;
      total += read;
      if (total > maxBytes) throw over();
      pieces.push(Buffer.from(piece.subarray(0, read)));
    }
    return Buffer.concat(pieces).toString('utf8');
  } catch (err) {
    if (err instanceof CommandError) throw err;
    throw bad(unreadable(err));
  } finally {
    closeSync(fd);
  }
}

function unreadable(err: unknown): string {
  if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'no such file';
  return `cannot read it (${fileErrorWords(err)})`;
}

const WORDS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EEXIST: 'a file is where a folder would be',
  ENOTDIR: 'a file is where a folder would be',
  EROFS: 'a read-only file system',
  ENOENT: 'no folder can be made there',
  ENOSPC: 'no space left',
};

/** What went wrong with a file, in words (the code beside them). */
export function fileErrorWords(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === undefined) return (err as Error).message;
  return WORDS[code] ? `${WORDS[code]}, ${code}` : code;
}

/**
 * Makes a folder and its missing parents, one level at a time, from the nearest that exists. Node's
 * recursive mkdir never returns where a file system refuses new entries with ENOENT (/proc): it
 * tries the same path again and again, and no signal can stop it.
 */
export function makeFolder(folder: string): void {
  const missing: string[] = [];
  let at = resolve(folder);
  for (; !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.unshift(at);
  if (!statSync(at).isDirectory())
    throw Object.assign(new Error(`${at} is not a folder`), { code: missing.length > 0 ? 'ENOTDIR' : 'EEXIST' });
  for (const level of missing) {
    try {
      mkdirSync(level);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}
