import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { remember } from '../common/bounded';
import { APP_CONFIG, AppConfig } from '../config/config';
import { DatabaseNotifications } from '../database/notifications';
import { WriteWatch } from '../database/write-watch';
import type { TokenRow } from './auth.repository';

/** The channel the database announces changes to tokens, users, memberships and organizations on (migration 1763801600000). */
export const PRINCIPALS_CHANNEL = 'finapi_principals';
const PRINCIPAL_TABLES = ['auth_tokens', 'users', 'memberships', 'organizations'] as const;
const MAX_ENTRIES = 50_000;

interface Entry {
  row: TokenRow;
  /** Until when (ms) this node may answer from the entry without asking the database. */
  until: number;
}

/**
 * What a token resolved to, kept for `TOKEN_CACHE_SECONDS` so a guarded request costs no token lookup. It stays
 * exact: a change to the token, its user, membership or organization, committed on any node, drops the entries it
 * concerns when the database announces it (a trigger's NOTIFY), and on this node the moment it commits
 * (WriteWatch). While the listening connection is down nothing is served from the cache. A lookup that started
 * before a change never stores its (older) answer after it: each change bumps the generation.
 */
@Injectable()
export class PrincipalCache implements OnModuleInit {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private generation = 0;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly notifications: DatabaseNotifications,
    private readonly writes: WriteWatch,
  ) {
    this.ttlMs = config.tokenCacheSeconds * 1000;
  }

  onModuleInit(): void {
    if (!this.ttlMs) return;
    this.notifications.subscribe(PRINCIPALS_CHANNEL, {
      message: (payload) => this.changed(payload),
      reset: () => this.clear(),
    });
    this.writes.watch(PRINCIPAL_TABLES, () => this.clear());
  }

  /** The live token with hash `key` (hex), from the cache when it may be, else from `load` (and remembered). */
  async resolve(key: string, load: () => Promise<TokenRow | undefined>): Promise<TokenRow | undefined> {
    if (!this.ttlMs || !this.notifications.live()) return load();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now && hit.row.expires_at.getTime() > now) return hit.row;
    if (hit) this.entries.delete(key);
    const generation = this.generation;
    const row = await load();
    if (row && generation === this.generation && this.notifications.live()) {
      remember(this.entries, key, { row, until: Date.now() + this.ttlMs }, MAX_ENTRIES);
    }
    return row;
  }

  /** `table:id` of a changed row: drop every entry built from it. */
  private changed(payload: string): void {
    this.generation++;
    const [table, id] = payload.split(':', 2);
    const column: keyof TokenRow | undefined =
      table === 'auth_tokens'
        ? 'token_id'
        : table === 'users'
          ? 'user_id'
          : table === 'memberships'
            ? 'membership_id'
            : table === 'organizations'
              ? 'organization_id'
              : undefined;
    if (!column) return this.clear();
    for (const [key, entry] of this.entries) if (entry.row[column] === id) this.entries.delete(key);
  }

  private clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
