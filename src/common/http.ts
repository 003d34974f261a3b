import type { FastifyRequest } from 'fastify';
import type { Principal } from '../access/principal';

export const GLOBAL_PREFIX = 'api/v1';

export type ApiRequest = FastifyRequest & { principal?: Principal };

/** The caller's address as the service saw it (behind a proxy, set TRUST_PROXY). */
export function clientAddress(request: FastifyRequest): string {
  return request.ip ?? '';
}
