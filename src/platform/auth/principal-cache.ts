import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';
import { FollowedCache } from '../database/followed-cache';
import { DatabaseNotifications } from '../database/notifications';
import { WriteWatch } from '../database/write-watch';
import type { TokenRow } from './auth.repository';

/** The channel the database announces changes to tokens, users, memberships and organizations on (migration 1763801600000). */
export const PRINCIPALS_CHANNEL = 'finapi_principals';
export const PRINCIPAL_TABLES = ['auth_tokens', 'users', 'memberships', 'organizations'] as const;
const MAX_ENTRIES = 50_000;

/** Which of a kept token's columns names the row a change of each table announces. */
const COLUMN_OF = new Map<string, keyof TokenRow>([
  ['auth_tokens', 'token_id'],
  ['users', 'user_id'],
  ['memberships', 'membership_id'],
  ['organizations', 'organization_id'],
]);

/**
 * What a token resolved to, kept for `TOKEN_CACHE_SECONDS` so a guarded request costs no token lookup (a FollowedCache:
 * exact, since a change to the token, its user, membership or organization, committed on any node, drops the entries it
 * concerns when the database announces it, and on this node the moment it commits). A token past its expiry is never
 * served from it.
 */
@Injectable()
export class PrincipalCache implements OnModuleInit {
  private readonly cache: FollowedCache<TokenRow>;

  constructor(@Inject(APP_CONFIG) config: AppConfig, notifications: DatabaseNotifications, writes: WriteWatch) {
    this.cache = new FollowedCache<TokenRow>(notifications, writes, {
      ttlMs: config.tokenCacheSeconds * 1000,
      max: MAX_ENTRIES,
      channel: PRINCIPALS_CHANNEL,
      tables: PRINCIPAL_TABLES,
      stale: (table, id) => {
        const column = COLUMN_OF.get(table);
        return column && ((row) => row[column] === id);
      },
      servable: (row, now) => row.expires_at.getTime() > now,
    });
  }

  onModuleInit(): void {
    this.cache.follow();
  }

  /** The live token with hash `key` (hex), from the cache when it may be, else from `load` (and remembered). */
  resolve(key: string, load: () => Promise<TokenRow | undefined>): Promise<TokenRow | undefined> {
    return this.cache.get(key, load);
  }
}
