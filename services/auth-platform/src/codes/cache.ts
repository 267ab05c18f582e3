import type { CODE_TONES } from '@csp/db';

/** The few Redis commands the cache needs (ioredis satisfies it). */
export interface CacheRedis {
  hget(key: string, field: string): Promise<string | null>;
  hset(key: string, field: string, value: string): Promise<number>;
  hdel(key: string, field: string): Promise<number>;
  del(key: string): Promise<number>;
  expire(key: string, seconds: number): Promise<number>;
}

export interface CodeItem {
  code: string;
  codeName: string;
  codeNameEn: string | null;
  codeDesc: string | null;
  attr1: string | null;
  attr2: string | null;
  attr3: string | null;
  refCode: string | null;
  sortOrder: number;
  /** The colour of a tag showing the code (V110). */
  tone: (typeof CODE_TONES)[number];
}

/**
 * Active codes per group, shared by every instance: one Redis hash (field = group code), so a write
 * in one instance invalidates the group for all of them and a refresh is a single DEL. The TTL bounds
 * how long a read that raced a write can keep a stale list.
 */
export class CodeCache {
  static readonly TTL_SECONDS = 600;

  constructor(
    private readonly redis: CacheRedis,
    private readonly key: string,
  ) {}

  async get(groupCode: string): Promise<CodeItem[] | undefined> {
    const raw = await this.redis.hget(this.key, groupCode);
    return raw === null ? undefined : (JSON.parse(raw) as CodeItem[]);
  }

  async set(groupCode: string, codes: CodeItem[]): Promise<void> {
    await this.redis.hset(this.key, groupCode, JSON.stringify(codes));
    await this.redis.expire(this.key, CodeCache.TTL_SECONDS);
  }

  async evict(groupCode: string): Promise<void> {
    await this.redis.hdel(this.key, groupCode);
  }

  async clear(): Promise<void> {
    await this.redis.del(this.key);
  }
}

/** One cache per database, so environments (and test databases) sharing a Redis never mix. */
export function codeCacheKey(databaseUrl: string): string {
  let database = 'default';
  try {
    database = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, '')) || database;
  } catch {
    // not a URL: keep the default name
  }
  return `csp:${database}:common-codes`;
}
