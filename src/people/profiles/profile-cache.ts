import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { PRINCIPALS_CHANNEL } from '../../platform/auth/principal-cache';
import { APP_CONFIG, AppConfig } from '../../platform/config/config';
import { FollowedCache } from '../../platform/database/followed-cache';
import { DatabaseNotifications } from '../../platform/database/notifications';
import { WriteWatch } from '../../platform/database/write-watch';
import type { MyRow } from './profiles.repository';

const MAX_ENTRIES = 50_000;

interface Kept {
  organizationId: string;
  row: MyRow;
}

/**
 * What `GET /profiles/my` reads beside the token (ProfilesRepository.mine: the person, the organization's business,
 * every membership), kept per user and organization for `TOKEN_CACHE_SECONDS` like the principal the token resolves to,
 * so a profile read runs no statement. A FollowedCache on the principals' channel: a change to the user or the
 * organization drops its entries, a membership added, changed or removed drops them all (migration 1763804580000
 * announces the added ones), on this instance the moment it commits.
 */
@Injectable()
export class ProfileCache implements OnModuleInit {
  private readonly cache: FollowedCache<Kept>;

  constructor(@Inject(APP_CONFIG) config: AppConfig, notifications: DatabaseNotifications, writes: WriteWatch) {
    this.cache = new FollowedCache<Kept>(notifications, writes, {
      ttlMs: config.tokenCacheSeconds * 1000,
      max: MAX_ENTRIES,
      channel: PRINCIPALS_CHANNEL,
      tables: ['users', 'memberships', 'organizations'],
      inserts: true,
      stale: (table, id) => {
        if (table === 'auth_tokens') return () => false;
        if (table === 'users') return ({ row }) => row.id === id;
        if (table === 'organizations') return ({ organizationId }) => organizationId === id;
        return undefined;
      },
    });
  }

  onModuleInit(): void {
    this.cache.follow();
  }

  /** The row of `userId` in `organizationId`, kept when it may be, else from `load`. */
  async mine(userId: string, organizationId: string, load: () => Promise<MyRow | undefined>): Promise<MyRow | undefined> {
    const kept = await this.cache.get(`${userId}/${organizationId}`, async () => {
      const row = await load();
      return row && { organizationId, row };
    });
    return kept?.row;
  }
}
