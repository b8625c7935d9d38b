import type { Awaitable } from '../shared-state/awaitable.js';

export interface Attachment {
  field: string;
  name: string;
  type: string;
  size: number;
}

export interface Post {
  id: number;
  title: string;
  author: string;
  tags: string;
  attachments: Attachment[];
  createdAt: string;
}

export type NewPost = Omit<Post, 'id' | 'createdAt'>;

/** The posts every fresh store starts with. */
export const SEED_POSTS: readonly NewPost[] = [
  { title: 'Why my fetch said TypeError', author: 'Ada', tags: 'cors,fetch', attachments: [] },
  { title: 'Preflight, explained with one OPTIONS', author: 'Grace', tags: 'cors,preflight', attachments: [] },
  { title: 'Ünïcödé titles travel fine ✓', author: 'Jürgen', tags: 'encoding', attachments: [] },
];

/** The posts: a bounded list, oldest first, the oldest dropped past the bound. */
export interface PostStore {
  list(): Awaitable<readonly Post[]>;
  add(input: NewPost): Awaitable<Post>;
}

/**
 * Posts in one process's memory, the embedded default: a restart goes back to the seed posts,
 * and two api processes do not share them (RedisPostStore does).
 */
export class MemoryPostStore implements PostStore {
  private readonly posts: Post[] = [];
  private nextId = 1;

  constructor(private readonly max: number) {
    for (const post of SEED_POSTS) this.add(post);
  }

  list(): readonly Post[] {
    return this.posts;
  }

  add(input: NewPost): Post {
    const post: Post = { id: this.nextId++, ...input, createdAt: new Date().toISOString() };
    this.posts.push(post);
    if (this.posts.length > this.max) this.posts.splice(0, this.posts.length - this.max);
    return post;
  }
}
