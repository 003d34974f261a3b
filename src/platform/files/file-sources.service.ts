import { Injectable } from '@nestjs/common';
import type { Principal } from '../access/principal';

/** A file a caller may fetch: its name for the browser, its media type and its bytes (or text, produced as read). */
export interface ServedFile {
  name: string;
  mediaType: string;
  content: Buffer | AsyncIterable<string>;
}

/** Finds the file `id` if this source has it and the caller may see it; else undefined (the route answers 404). */
export type FileSource = (principal: Principal, id: string) => Promise<ServedFile | undefined>;

/**
 * The family's clients fetch every file by its id at one address, `GET /media-files/{id}/…`: uploaded scans, and
 * files other modules produce (a data export's CSV). The modules that produce files register a source at start;
 * the media route asks them in turn, so it needs to know none of them.
 */
@Injectable()
export class FileSourcesService {
  private readonly sources: FileSource[] = [];

  register(source: FileSource): void {
    this.sources.push(source);
  }

  async find(principal: Principal, id: string): Promise<ServedFile | undefined> {
    for (const source of this.sources) {
      const file = await source(principal, id);
      if (file) return file;
    }
    return undefined;
  }
}
