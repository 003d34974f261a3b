import { randomBytes } from 'node:crypto';
import type { ApiResponse, TestServer } from './server';

/** A multipart/form-data body with one file part, as a browser's form upload sends it. */
export function multipart(
  field: string,
  filename: string,
  content: string | Buffer,
  type = 'text/csv',
): { body: Buffer; contentType: string } {
  const boundary = `----finapi${randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
  const body = Buffer.concat([
    Buffer.from(head),
    Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Uploads a file to a route as the field `field` (default `file`). */
export function upload(server: TestServer, token: string, path: string, content: string | Buffer, field = 'file'): Promise<ApiResponse> {
  const { body, contentType } = multipart(field, 'banks.csv', content);
  return server.request('POST', path, { token, rawBody: body, headers: { 'content-type': contentType } });
}
