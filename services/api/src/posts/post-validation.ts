import type { FormFields } from '@origin-lab/contract';
import { HttpError } from '@origin-lab/server-kit';
import type { Attachment, NewPost } from './post-store.js';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Length as a reader counts characters: user-perceived characters, not bytes or UTF-16 units. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of graphemes.segment(text)) count++;
  return count;
}

export interface PostLimits {
  titleChars: number;
  authorChars: number;
}

/** Checks title and author, accepts tags as they come, and ignores every other field. */
export function validatePost(fields: FormFields, attachments: Attachment[], limits: PostLimits): NewPost {
  const title = requiredText(fields, 'title', limits.titleChars);
  const author = requiredText(fields, 'author', limits.authorChars);
  const tags = fields.tags;
  return { title, author, tags: Array.isArray(tags) ? tags.join(',') : (tags ?? ''), attachments };
}

function requiredText(fields: FormFields, name: string, maxChars: number): string {
  const value = fields[name];
  if (Array.isArray(value)) throw invalid(name, `${name} must be sent once, not ${value.length} times`);
  const text = value?.trim() ?? '';
  if (text === '') throw invalid(name, `${name} is required and must not be blank`);
  const count = characterCount(text);
  if (count > maxChars) throw invalid(name, `${name} has ${count} characters; at most ${maxChars} are allowed`);
  return text;
}

function invalid(field: string, detail: string): HttpError {
  return new HttpError(400, 'the post is not valid', { field, detail });
}
