import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ApiError } from './api-error';

/** Route config that lets multipart/form-data through to a route (every other route answers it 415; see app.factory.ts). */
export const MULTIPART_ROUTE = { multipart: true } as const;

type MultipartRequest = FastifyRequest & {
  isMultipart(): boolean;
  file(options?: { limits?: { fileSize?: number } }): Promise<MultipartFile | undefined>;
};

/**
 * Reads the one file of a multipart/form-data upload from the form field `field`, at most `limit`
 * bytes. Not multipart is a 415, no such file a 400, a larger file the `tooLarge` 413, and a
 * malformed upload a 400 — never a 500.
 */
export async function readUpload(request: FastifyRequest, field: string, limit: number, tooLarge: () => ApiError): Promise<Buffer> {
  return (await readUploadedFile(request, field, limit, tooLarge)).content;
}

/** An uploaded file: its bytes, and the name and type the sender gave it (neither to be trusted). */
export interface UploadedFile {
  content: Buffer;
  filename: string;
  mimetype: string;
}

/** As readUpload, with the file's name and declared type. */
export async function readUploadedFile(
  request: FastifyRequest,
  field: string,
  limit: number,
  tooLarge: () => ApiError,
): Promise<UploadedFile> {
  const upload = request as MultipartRequest;
  if (typeof upload.isMultipart !== 'function' || !upload.isMultipart()) {
    throw new ApiError('exception.request.unsupported_media_type', `Upload the file as multipart/form-data, in the field "${field}"`);
  }
  try {
    const part = await upload.file({ limits: { fileSize: limit } });
    if (!part || part.fieldname !== field) throw ApiError.invalid(field, 'must be the uploaded file (multipart/form-data)');
    return { content: await part.toBuffer(), filename: part.filename, mimetype: part.mimetype };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if ((error as { statusCode?: number }).statusCode === 413) throw tooLarge();
    throw ApiError.invalid(field, 'could not be read: the upload is not well-formed multipart/form-data');
  }
}
