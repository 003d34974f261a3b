import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

@Injectable()
export class RateLimitsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Takes one hit from the subject's bucket of `name`, atomically (the row is locked by the upsert: parallel requests on
   * any instance cannot all read a bucket with one hit left). A bucket holds at most `limit` hits, starts full and
   * refills at `limit` per `windowSeconds`. Answers whether a hit was taken and, when not, the seconds until one is
   * back.
   */
  async take(name: string, subject: string, limit: number, windowSeconds: number): Promise<{ taken: boolean; retryAfterSeconds: number }> {
    const [row] = await this.db.query<{ taken: boolean; tokens: number | null }>(
      `WITH hit AS (
         INSERT INTO rate_limit_buckets AS b (name, subject, tokens, updated_at) VALUES ($1, $2, $3::float8 - 1, now())
         ON CONFLICT (name, subject) DO UPDATE
            SET tokens = least($3::float8, b.tokens + greatest(0, extract(epoch FROM now() - b.updated_at)) * $3::float8 / $4::float8) - 1,
                updated_at = now()
          WHERE least($3::float8, b.tokens + greatest(0, extract(epoch FROM now() - b.updated_at)) * $3::float8 / $4::float8) >= 1
         RETURNING 1)
       SELECT EXISTS (SELECT 1 FROM hit) AS taken,
              (SELECT least($3::float8, b.tokens + greatest(0, extract(epoch FROM now() - b.updated_at)) * $3::float8 / $4::float8)
                 FROM rate_limit_buckets b WHERE b.name = $1 AND b.subject = $2) AS tokens`,
      [name, subject, limit, windowSeconds],
      { prepare: true },
    );
    // A bucket idle for a day (the longest window) is full again: as good as none.
    if (Math.random() < 0.001) await this.db.query(`DELETE FROM rate_limit_buckets WHERE updated_at < now() - interval '1 day'`);
    const missing = Math.max(0, 1 - (row.tokens ?? limit));
    return { taken: row.taken, retryAfterSeconds: Math.max(1, Math.ceil((missing * windowSeconds) / limit)) };
  }

  /** Gives one hit back to the subject's bucket of `name` (never above `limit`): a hit that turned out not to count. */
  async giveBack(name: string, subject: string, limit: number): Promise<void> {
    await this.db.query(`UPDATE rate_limit_buckets SET tokens = least($3::float8, tokens + 1) WHERE name = $1 AND subject = $2`, [
      name,
      subject,
      limit,
    ]);
  }
}
