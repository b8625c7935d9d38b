import { stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { Middleware } from 'koa';
import resolvePath from 'resolve-path';
import { HttpError, methodNotAllowed } from '@origin-lab/server-kit';

/** The methods a page takes: its file is read, never written. */
const PAGE_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/**
 * The file of the pages folder a request path names (a folder's index.html), or null when it
 * names none, leaves the folder or is hidden (a name starting with a dot, which koa-static does
 * not serve either). koa-static finds the same files for GET and HEAD, by the same resolve-path.
 */
async function pageFile(root: string, path: string): Promise<string | null> {
  let file: string;
  try {
    const relative = decodeURIComponent(path).replace(/^\//, '');
    file = resolvePath(root, relative === '' || relative.endsWith('/') ? `${relative}index.html` : relative);
  } catch {
    return null; // not decodable, a NUL, an absolute path, or a path out of the folder
  }
  const names = file.slice(resolve(root).length).split(sep);
  if (names.some((name) => name.startsWith('.'))) return null;
  const found = await stat(file).catch(() => null);
  return found?.isFile() ? file : null;
}

/**
 * After the files: what none of them answered gets the JSON answers the api gives. A page asked
 * with a method other than GET or HEAD is 405 with Allow (OPTIONS: 204 with Allow); a path that
 * names no page is 404 `{ error, path }`.
 */
export function unservedAsJson(root: string): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.body != null || ctx.status !== 404) return;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && (await pageFile(root, ctx.path))) {
      if (ctx.method !== 'OPTIONS') throw methodNotAllowed(ctx.path, PAGE_METHODS);
      ctx.set('Allow', PAGE_METHODS.join(', '));
      ctx.status = 204;
      return;
    }
    throw new HttpError(404, 'no such page', { path: ctx.path });
  };
}
