import type { Context } from 'koa';
import { POSTS, TAGS } from './catalog.js';
import { HttpError, queryInt } from '@origin-lab/server-kit';

/** Marks every answer with the call that produced it, so a cached copy is recognisable downstream. */
function served(ctx: Context) {
  return { upstream: { call: ctx.state.call as number, query: ctx.querystring } };
}

/** GET /posts?page=&perPage=&tag=&author= : one page of the catalogue, optionally filtered. */
export function listPosts(ctx: Context): void {
  const page = queryInt(ctx, 'page', { min: 1, max: 1_000, default: 1 });
  const perPage = queryInt(ctx, 'perPage', { min: 1, max: 50, default: 10 });
  const tag = singleText(ctx, 'tag');
  const author = singleText(ctx, 'author');
  const matching = POSTS.filter(
    (post) => (tag === undefined || post.tags.includes(tag)) && (author === undefined || post.author === author),
  );
  ctx.set('Cache-Control', 'max-age=60');
  ctx.body = {
    page,
    perPage,
    total: matching.length,
    posts: matching.slice((page - 1) * perPage, page * perPage),
    ...served(ctx),
  };
}

/** GET /tags?prefix= : the tags in use, optionally only those starting with prefix. */
export function listTags(ctx: Context): void {
  const prefix = singleText(ctx, 'prefix') ?? '';
  ctx.set('Cache-Control', 'max-age=60');
  ctx.body = { tags: TAGS.filter((tag) => tag.startsWith(prefix)), ...served(ctx) };
}

function singleText(ctx: Context, name: string): string | undefined {
  const raw = ctx.query[name];
  if (raw === undefined) return undefined;
  if (Array.isArray(raw) || raw.length > 100)
    throw new HttpError(400, `${name} must be given once, at most 100 characters`);
  return raw;
}
