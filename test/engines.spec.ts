import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** semver, installed with fastify (without type declarations): what this test uses of it. */
const { Range, satisfies, validRange } = jest.requireActual<{
  Range: new (range: string, options: { loose: boolean }) => { test(version: string): boolean };
  satisfies(version: string, range: string): boolean;
  validRange(range: string): string | null;
}>('semver');

const ROOT = join(__dirname, '..');
const ours = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

/**
 * The Node versions `range` allows, as the first release of each minor line from Node 18 to 40 and a late patch of it:
 * enough to meet every bound an engines range puts (a major, a minor line, or from one on).
 */
function nodeVersions(range: string): string[] {
  const versions: string[] = [];
  for (let major = 18; major <= 40; major++) {
    for (let minor = 0; minor <= 40; minor++) versions.push(`${major}.${minor}.0`, `${major}.${minor}.99`);
  }
  return versions.filter((version) => satisfies(version, range));
}

/** Every installed package the service runs with (dependencies, not devDependencies), by its folder. */
function productionPackages(): string[] {
  const parseable = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  return [...new Set(parseable.split('\n').filter((line) => line && line !== ROOT))];
}

describe('engines', () => {
  it("every production dependency runs on each Node version package.json's engines.node allows", () => {
    expect(validRange(ours)).not.toBeNull();
    const versions = nodeVersions(ours);
    expect(versions).toContain('20.19.0');
    const packages = productionPackages();
    expect(packages.length).toBeGreaterThan(100);
    const refusing = packages.flatMap((dir) => {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
        engines?: { node?: string };
      };
      const node = manifest.engines?.node;
      if (!node) return [];
      const theirs = new Range(node, { loose: true });
      const missing = versions.filter((version) => !theirs.test(version));
      return missing.length ? [`${manifest.name}@${manifest.version} needs node ${node}, not ${missing[0]}`] : [];
    });
    expect(refusing).toEqual([]);
  });

  it('the dependencies held back for Node 20 by package.json overrides still do their work', async () => {
    // @fastify/static's reply.download() names the file with content-disposition; light-my-request (inject) sends cookies with cookie.
    // Loaded here, not at the top: a version that jest cannot load fails this test alone.
    const Fastify = jest.requireActual<typeof import('fastify')>('fastify').default;
    const fastifyStatic = jest.requireActual<typeof import('@fastify/static')>('@fastify/static').default;
    const fastify = Fastify({ logger: false });
    await fastify.register(fastifyStatic, { root: join(ROOT, 'public'), serve: false });
    fastify.get('/file', (_request, reply) => reply.download('login.html', 'résumé 1.html'));
    fastify.get('/cookies', (request, reply) => reply.send(request.headers.cookie ?? ''));
    const file = await fastify.inject({ method: 'GET', url: '/file' });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe(`attachment; filename="r?sum? 1.html"; filename*=UTF-8''r%C3%A9sum%C3%A9%201.html`);
    const cookies = await fastify.inject({ method: 'GET', url: '/cookies', cookies: { a: 'b c', d: 'e' } });
    expect(cookies.body).toBe('a=b%20c; d=e');
    await fastify.close();

    // @nestjs/common's FileTypeValidator reads the magic number with file-type (an ES module: run in Node itself, not jest's loader).
    const check = `
      const { FileTypeValidator } = require('@nestjs/common');
      const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
      const file = (buffer, mimetype) => ({ buffer, mimetype, size: buffer.length, originalname: 'x', fieldname: 'f', encoding: '7bit' });
      const validator = new FileTypeValidator({ fileType: 'image/png' });
      Promise.all([validator.isValid(file(png, 'image/png')), validator.isValid(file(Buffer.from('%PDF-1.7 not a png at all'), 'image/png'))])
        .then((results) => process.stdout.write(JSON.stringify(results)));`;
    expect(execFileSync(process.execPath, ['-e', check], { cwd: ROOT, encoding: 'utf8' })).toBe('[true,false]');
  });
});
