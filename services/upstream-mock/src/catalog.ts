/**
 * The third party's data: a fixed, generated catalogue of posts and the tags they use.
 * Deterministic, so tests and the demonstration page can predict what a query returns.
 */
export interface UpstreamPost {
  id: number;
  title: string;
  author: string;
  tags: string[];
}

const TOPICS = ['cors', 'preflight', 'cookies', 'beacons', 'sse', 'fetch', 'caching', 'http2'] as const;
const AUTHORS = ['Ada', 'Grace', 'Linus', 'Margaret', 'Tim'] as const;

export const POSTS: readonly UpstreamPost[] = Array.from({ length: 42 }, (_, index) => {
  const id = index + 1;
  const first = TOPICS[index % TOPICS.length]!;
  const second = TOPICS[(index * 3 + 1) % TOPICS.length]!;
  return {
    id,
    title: `Notes on ${first} #${id}`,
    author: AUTHORS[index % AUTHORS.length]!,
    tags: first === second ? [first] : [first, second],
  };
});

export const TAGS: readonly string[] = [...TOPICS].sort();
