import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The browser pages (login page, administrator's console) and their files. */
export const PAGES: Record<string, string> = { '/login': 'login.html', '/admin': 'admin.html', '/dashboard': 'dashboard.html' };
export const ASSETS_PREFIX = '/assets/';

/** A Content-Security-Policy of our own files only, never framed, with the styles `styleSrc` allows. */
const contentSecurityPolicy = (styleSrc: string) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    `style-src ${styleSrc}`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

/** Pages: only our own files, no inline script or style, never framed. */
export const PAGE_CSP = contentSecurityPolicy("'self'");

/** Swagger UI ships inline styles (its HTML and the style attributes React sets); scripts stay our own files. */
export const SWAGGER_CSP = contentSecurityPolicy("'self' 'unsafe-inline'");

/**
 * The `public/` folder at the package root, wherever the build lives: walks up from this file to the
 * folder holding package.json (dist/src/platform/pages → the package), then falls back to the working directory.
 */
export function findPublicDir(): string {
  const candidates: string[] = [];
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) {
      candidates.push(join(dir, 'public'));
      break;
    }
    if (dirname(dir) === dir) break;
  }
  candidates.push(join(process.cwd(), 'public'));
  const found = candidates.find((candidate) => existsSync(join(candidate, 'login.html')));
  if (!found) throw new Error(`The browser pages were not found (looked for login.html in ${candidates.join(', ')})`);
  return found;
}

function pathOf(request: FastifyRequest): string {
  const url = request.raw.url ?? request.url;
  const end = url.indexOf('?');
  return end === -1 ? url : url.slice(0, end);
}

/**
 * Security headers: every answer says nosniff; the pages and Swagger UI also get a CSP, refuse
 * framing and send no referrer. API answers are JSON, keep nosniff and are never stored by a cache:
 * they carry tokens, temporary passwords and balances.
 */
export function securityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  void reply.header('X-Content-Type-Options', 'nosniff');
  const path = pathOf(request);
  if (path === '/api' || path.startsWith('/api/')) {
    void reply.header('Cache-Control', 'no-store');
    return;
  }
  void reply.header('Content-Security-Policy', path.startsWith('/swagger/') || path === '/swagger' ? SWAGGER_CSP : PAGE_CSP);
  void reply.header('X-Frame-Options', 'DENY');
  void reply.header('Referrer-Policy', 'no-referrer');
}

/** Serves the pages and their assets straight from Fastify (outside Nest: no prefix, no access rule, no API log). */
export function registerPages(fastify: FastifyInstance, publicDir = findPublicDir()): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    securityHeaders(request, reply);
    done(null, payload);
  });
  void fastify.register(async (instance) => {
    await instance.register(fastifyStatic, {
      root: join(publicDir, 'assets'),
      prefix: ASSETS_PREFIX,
      index: false,
      // The token lives in sessionStorage, never in a cookie or a URL: the pages themselves are static.
      cacheControl: true,
      maxAge: 0,
    });
    instance.get('/', async (_request, reply) => reply.redirect('/login'));
    for (const [route, file] of Object.entries(PAGES)) {
      instance.get(route, async (_request, reply) => reply.header('Cache-Control', 'no-cache').sendFile(file, publicDir));
    }
  });
}
