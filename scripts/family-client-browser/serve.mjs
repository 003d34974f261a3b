// Serves the family client's dist/ (SPA fallback to index.html) and proxies /api/v1/* to finapi.
// Usage: node serve.mjs [--port 8088] [--api http://127.0.0.1:3920] [--dist /tmp/finapi-family-client/client/dist]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const arg = (name, def) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : (process.env[name.toUpperCase()] ?? def); };
const PORT = Number(arg('port', 8088));
const API = new URL(arg('api', 'http://127.0.0.1:3920'));
const DIST = path.resolve(arg('dist', process.env.CLIENT_DIST ?? '/tmp/finapi-family-client/client/dist'));
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.ico': 'image/x-icon', '.woff': 'font/woff', '.woff2': 'font/woff2', '.ttf': 'font/ttf', '.eot': 'application/vnd.ms-fontobject', '.json': 'application/json', '.map': 'application/json' };

http.createServer((req, res) => {
  if (req.url.startsWith('/api/v1/') || req.url === '/api/v1' || req.url.startsWith('/media-files/') || req.url.startsWith('/media-links/')) {
    const upstream = http.request({ hostname: API.hostname, port: API.port, path: req.url, method: req.method, headers: { ...req.headers, host: API.host } }, (up) => {
      res.writeHead(up.statusCode, up.headers);
      up.pipe(res);
    });
    upstream.on('error', (e) => { res.writeHead(502, { 'content-type': 'text/plain' }); res.end(`proxy error: ${e.message}`); });
    req.pipe(upstream);
    return;
  }
  const urlPath = decodeURIComponent(req.url.split('?')[0]);
  let file = path.join(DIST, urlPath);
  if (!file.startsWith(DIST)) { res.writeHead(403); res.end(); return; }
  fs.stat(file, (err, st) => {
    if (err || !st.isFile()) file = path.join(DIST, 'index.html');
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
}).listen(PORT, '127.0.0.1', () => console.log(`client on http://127.0.0.1:${PORT} → API ${API.href}, dist ${DIST}`));
