import { remember } from '../common/bounded';
import type { DatabaseNotifications } from './notifications';
import type { WriteWatch } from './write-watch';

/** How a FollowedCache hears of changes, and how long it keeps what it read. */
export interface FollowedCacheOptions<V> {
  /** Milliseconds an entry may be served without asking the database; 0: no cache (every read loads). */
  ttlMs: number;
  /** Entries kept at most (the oldest dropped first: `remember`). */
  max: number;
  /** The channel the database announces changes on, each as `table:id` (a trigger's NOTIFY). */
  channel: string;
  /** The tables whose writes on this instance drop every entry the moment they commit (WriteWatch). */
  tables: readonly string[];
  /** Whether an INSERT into those tables drops them too (a row added changes what was read). */
  inserts?: boolean;
  /** The entries a change of `table`'s row `id` makes stale; undefined: every entry. */
  stale(table: string, id: string): ((value: V) => boolean) | undefined;
  /** Whether an entry may still be served at `now` (ms), beyond its time to live (a token's own expiry). */
  servable?(value: V, now: number): boolean;
}

/**
 * Rows read for a request, kept a few seconds so the next request needs no statement, and exact all the same: a change
 * committed on any instance drops the entries it concerns when the database announces it (NOTIFY on `channel`), and on
 * this instance the moment it commits (WriteWatch). While the listening connection is down nothing is served from it. A
 * load that started before a change never stores its (older) answer after it: each change bumps the generation. The
 * one way the service keeps what a request reads (PrincipalCache, ProfileCache).
 */
export class FollowedCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  private generation = 0;
  private following = false;

  constructor(
    private readonly notifications: DatabaseNotifications,
    private readonly writes: WriteWatch,
    private readonly options: FollowedCacheOptions<V>,
  ) {}

  /** Starts hearing of changes (its owner's onModuleInit); until then, and with no time to live, nothing is kept. */
  follow(): void {
    const { ttlMs, channel, tables, inserts } = this.options;
    if (!ttlMs || this.following) return;
    this.following = true;
    this.notifications.subscribe(channel, { message: (payload) => this.changed(payload), reset: () => this.clear() });
    this.writes.watch(tables, () => this.clear(), { inserts });
  }

  /** The value of `key`, kept when it may be served, else from `load` (and kept, unless something changed meanwhile). */
  async get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const { ttlMs, max, servable } = this.options;
    if (!ttlMs || !this.following || !this.notifications.live()) return load();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now && (!servable || servable(hit.value, now))) return hit.value;
    if (hit) this.entries.delete(key);
    const generation = this.generation;
    const value = await load();
    if (value !== undefined && generation === this.generation && this.notifications.live()) {
      remember(this.entries, key, { value, until: Date.now() + ttlMs }, max);
    }
    return value;
  }

  /** `table:id` of a changed row: drops every entry built from it. */
  private changed(payload: string): void {
    this.generation++;
    const [table, id] = payload.split(':', 2);
    const stale = this.options.stale(table, id);
    if (!stale) return this.clear();
    for (const [key, entry] of this.entries) if (stale(entry.value)) this.entries.delete(key);
  }

  private clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
