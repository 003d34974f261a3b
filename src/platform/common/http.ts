import type { FastifyRequest } from 'fastify';

export const GLOBAL_PREFIX = 'api/v1';

/** The caller's address as the service saw it (behind a proxy, set TRUST_PROXY). */
export function clientAddress(request: FastifyRequest): string {
  return request.ip ?? '';
}
