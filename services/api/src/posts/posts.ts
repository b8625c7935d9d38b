import type { Context, Middleware } from 'koa';
import multer from '@koa/multer';
import { mimeEssence, type FormFields } from '@origin-lab/contract';
import { HttpError } from '@origin-lab/server-kit';
import { readBody, bodyTooLarge } from '../http/read-body.js';
import type { Attachment, PostStore } from './post-store.js';
import { validatePost, type PostLimits } from './post-validation.js';

export interface PostsHandlers {
  /** GET: every post, oldest first. */
  list: Middleware;
  /** POST: creates one post from multipart or urlencoded form data. */
  create: Middleware;
}

/** What a post may carry: the urlencoded body, the multipart parts, and the fields validated. */
export interface PostsLimits extends PostLimits {
  /** Largest urlencoded body. */
  bodyBytes: number;
  /** Multipart: largest single file, number of files, number of non-file fields, largest field value. */
  fileBytes: number;
  files: number;
  fields: number;
  fieldBytes: number;
}

/** The handlers over a store: in memory (one process) or Redis (every replica). */
export function posts(limits: PostsLimits, store: PostStore): PostsHandlers {
  const multipart = multer({
    storage: multer.memoryStorage(),
    limits: {
      fileSize: limits.fileBytes,
      files: limits.files,
      fields: limits.fields,
      fieldSize: limits.fieldBytes,
      fieldNameSize: 200,
      parts: limits.fields + limits.files,
    },
  }).any();

  async function readForm(ctx: Context): Promise<{ fields: FormFields; attachments: Attachment[] }> {
    const essence = mimeEssence(ctx.get('Content-Type'));
    if (essence === 'application/x-www-form-urlencoded') {
      const text = (await readBody(ctx, limits.bodyBytes)).toString('utf8');
      const fields: FormFields = {};
      for (const [name, value] of new URLSearchParams(text)) {
        const seen = fields[name];
        fields[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
      }
      return { fields, attachments: [] };
    }
    if (essence === 'multipart/form-data') {
      const declared = Number(ctx.get('Content-Length') || 0);
      if (declared > limits.bodyBytes + limits.files * limits.fileBytes)
        throw bodyTooLarge(limits.bodyBytes + limits.files * limits.fileBytes);
      try {
        await multipart(ctx, async () => {});
      } catch (err) {
        throw multipartFailure(err);
      }
      const files = (ctx.files ?? []) as multer.File[];
      // An empty file input still sends a part: check the size, not just that the field exists.
      const attachments = files
        .filter((file) => file.size > 0)
        .map((file) => ({ field: file.fieldname, name: file.originalname, type: file.mimetype, size: file.size }));
      return { fields: (ctx.request as { body?: FormFields }).body ?? {}, attachments };
    }
    throw new HttpError(415, 'POST /api/posts reads form data', {
      detail: `send multipart/form-data or application/x-www-form-urlencoded, not "${essence || 'no Content-Type'}"`,
    });
  }

  return {
    list: async (ctx) => {
      ctx.body = { posts: await store.list() };
    },
    create: async (ctx) => {
      const { fields, attachments } = await readForm(ctx);
      const post = await store.add(validatePost(fields, attachments, limits));
      ctx.status = 201;
      ctx.body = { post };
    },
  };
}

const LIMIT_MESSAGES: Record<string, string> = {
  LIMIT_FILE_SIZE: 'a file is larger than the upload limit',
  LIMIT_FILE_COUNT: 'too many files in the form',
  LIMIT_FIELD_COUNT: 'too many fields in the form',
  LIMIT_FIELD_VALUE: 'a field value is longer than the limit',
  LIMIT_FIELD_KEY: 'a field name is too long',
  LIMIT_PART_COUNT: 'too many parts in the form',
};

/** Limits are the client's fault (413); anything else means the body could not be parsed (500, as the spec says). */
function multipartFailure(err: unknown): HttpError {
  const code = (err as { code?: string }).code ?? '';
  const field = (err as { field?: string }).field;
  const limitMessage = LIMIT_MESSAGES[code];
  if (limitMessage) return new HttpError(413, limitMessage, { detail: code, ...(field ? { field } : {}) });
  return new HttpError(500, 'the form body could not be parsed', { detail: (err as Error).message ?? String(err) });
}
