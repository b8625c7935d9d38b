import { randomBytes } from 'node:crypto';
import { fromShared, type SharedRedis } from '../../shared-state/redis.js';

/**
 * The provider's authorization codes: each good once, for a short time, on any replica. A code
 * stands for what was authorized (the grant); redeeming it takes it away, so a code used twice
 * finds nothing the second time.
 */
export interface IdpGrant {
  /** Where the answer was sent: the token request must name the same address. */
  redirectUri: string;
  /** Who signed in (the session cookie's value stands for a user). */
  user: string;
}

export interface IdpCodes {
  issue(grant: IdpGrant): Promise<string> | string;
  /** The grant, once; null for a code never issued, expired or already redeemed. */
  redeem(code: string): Promise<IdpGrant | null> | IdpGrant | null;
}

export interface IdpCodeLimits {
  /** How long a code is good for. */
  ttlMs: number;
  /** Most codes held in memory at once; the oldest is forgotten first. */
  max: number;
}

export const IDP_CODE_LIMITS: IdpCodeLimits = { ttlMs: 60_000, max: 10_000 };

/** A code: 128 random bits, URL-safe. */
export const newCode = () => randomBytes(16).toString('base64url');

/** The codes in this process (npm start, one replica). */
export class MemoryIdpCodes implements IdpCodes {
  private readonly codes = new Map<string, { grant: IdpGrant; until: number }>();

  constructor(
    private readonly limits: IdpCodeLimits = IDP_CODE_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  issue(grant: IdpGrant): string {
    const code = newCode();
    if (this.codes.size >= this.limits.max) this.codes.delete(this.codes.keys().next().value!);
    this.codes.set(code, { grant, until: this.now() + this.limits.ttlMs });
    return code;
  }

  redeem(code: string): IdpGrant | null {
    const held = this.codes.get(code);
    this.codes.delete(code);
    return held && held.until > this.now() ? held.grant : null;
  }
}

/** The codes every replica shares: one Redis key each, expiring by itself, taken with GETDEL. */
export class RedisIdpCodes implements IdpCodes {
  constructor(
    private readonly redis: SharedRedis,
    private readonly limits: IdpCodeLimits = IDP_CODE_LIMITS,
  ) {}

  async issue(grant: IdpGrant): Promise<string> {
    const code = newCode();
    await fromShared(
      'identity provider',
      this.redis.commands.set(this.redis.key(`idp-code:${code}`), JSON.stringify(grant), 'PX', this.limits.ttlMs),
    );
    return code;
  }

  async redeem(code: string): Promise<IdpGrant | null> {
    const text = await fromShared('identity provider', this.redis.commands.getdel(this.redis.key(`idp-code:${code}`)));
    return text === null ? null : (JSON.parse(text) as IdpGrant);
  }
}
