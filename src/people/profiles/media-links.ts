import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a signed link to a document's scan works: long enough for a page to load and preview it. */
export const MEDIA_LINK_TTL_SECONDS = 15 * 60;

/**
 * Signed links to a file, for pages that show a scan as an image (an `<img src>` sends no Authorization header):
 * `/api/v1/media-links/{id}/{name}?expires={unix seconds}&signature={HMAC-SHA256 of id and expiry, base64url}`.
 * Only answers to callers who may see the file carry one; the link works for its file until it expires. The request
 * log never writes a query string, so the signature is not logged.
 */
export class MediaLinks {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('finapi media link v1', 'utf8').digest();
  }

  url(id: string, name: string, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + MEDIA_LINK_TTL_SECONDS;
    return `/api/v1/media-links/${id}/${encodeURIComponent(name)}?expires=${expires}&signature=${this.signature(id, expires)}`;
  }

  /** Whether `signature` signs `id` until `expires`, and that time has not passed. */
  valid(id: string, expires: string | undefined, signature: string | undefined, now = Date.now()): boolean {
    if (!expires || !/^\d{1,12}$/.test(expires) || !signature || signature.length > 64) return false;
    if (Number(expires) * 1000 <= now) return false;
    const expected = Buffer.from(this.signature(id, Number(expires)));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private signature(id: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${id.toLowerCase()}:${expires}`, 'utf8').digest('base64url');
  }
}
