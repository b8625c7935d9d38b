import { fromShared, luaScript, type SharedRedis } from '../shared-state/redis.js';
import { SEED_POSTS, type NewPost, type Post, type PostStore } from './post-store.js';

/**
 * Puts the seed posts in when the store has never been written (a new Redis, or one restarted
 * without its data), then runs the command. Every post is stored as its JSON text with the id
 * written first, numbered by one counter, so every replica numbers and orders posts alike.
 * KEYS: the list, the id counter. ARGV: the cap, then the seed posts' JSON (id left out).
 */
const SEED_IF_NEW = `
local function push(json)
  local id = redis.call('INCR', KEYS[2])
  redis.call('RPUSH', KEYS[1], '{"id":' .. id .. ',' .. string.sub(json, 2))
  redis.call('LTRIM', KEYS[1], -tonumber(ARGV[1]), -1)
  return id
end
if redis.call('EXISTS', KEYS[2]) == 0 then
  for i = 3, #ARGV do push(ARGV[i]) end
end
`;

/** Adds one post (ARGV[2], JSON without id); returns its id. */
const ADD = `${SEED_IF_NEW}
return push(ARGV[2])
`;

/** Every post, oldest first. */
const LIST = `${SEED_IF_NEW}
return redis.call('LRANGE', KEYS[1], 0, -1)
`;

/** Posts shared by every replica: a Redis list of JSON texts, trimmed to max. */
export class RedisPostStore implements PostStore {
  private readonly keys: string[];
  /** The seed posts' JSON, made once: sent with every command, used only on a new store. */
  private readonly seeds: string[];
  private readonly listScript;
  private readonly addScript;
  /** The read this turn's lists share, until the turn ends. */
  private turnRead: Promise<readonly Post[]> | null = null;

  constructor(
    redis: SharedRedis,
    private readonly max: number,
  ) {
    // One hash tag: the list and its counter sit on one node of a cluster, as the scripts need.
    this.keys = [redis.key('{posts}:list'), redis.key('{posts}:next-id')];
    const createdAt = new Date().toISOString();
    this.seeds = SEED_POSTS.map((post) => JSON.stringify({ ...post, createdAt }));
    this.listScript = luaScript(redis, 'originLabPostsList', 2, LIST);
    this.addScript = luaScript(redis, 'originLabPostsAdd', 2, ADD);
  }

  /**
   * Every list asked for in one turn of the event loop shares one read, sent after every write
   * this replica started before it: a request that saw a write answered (an earlier turn) asks
   * afresh. A class's pages load the list together; one read answers them all.
   */
  list(): Promise<readonly Post[]> {
    if (this.turnRead) return this.turnRead;
    const read = this.read();
    this.turnRead = read;
    setImmediate(() => {
      if (this.turnRead === read) this.turnRead = null;
    });
    return read;
  }

  private async read(): Promise<readonly Post[]> {
    const texts = (await fromShared(
      'post list',
      this.listScript(...this.keys, this.max, '{}', ...this.seeds),
    )) as string[];
    return texts.map((text) => JSON.parse(text) as Post);
  }

  async add(input: NewPost): Promise<Post> {
    const createdAt = new Date().toISOString();
    const json = JSON.stringify({ ...input, createdAt });
    const id = (await fromShared('post list', this.addScript(...this.keys, this.max, json, ...this.seeds))) as number;
    return { id, ...input, createdAt };
  }
}
