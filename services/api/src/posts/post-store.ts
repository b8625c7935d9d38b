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

const SEED: NewPost[] = [
  { title: 'Why my fetch said TypeError', author: 'Ada', tags: 'cors,fetch', attachments: [] },
  { title: 'Preflight, explained with one OPTIONS', author: 'Grace', tags: 'cors,preflight', attachments: [] },
  { title: 'Ünïcödé titles travel fine ✓', author: 'Jürgen', tags: 'encoding', attachments: [] },
];

/**
 * Posts in memory, oldest dropped past max. A demonstration store: a restart goes back to the
 * three seed posts, and two api processes do not share posts.
 */
export class PostStore {
  private readonly posts: Post[] = [];
  private nextId = 1;

  constructor(private readonly max: number) {
    for (const post of SEED) this.add(post);
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
