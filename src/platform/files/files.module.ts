import { Global, Module } from '@nestjs/common';
import { FileSourcesService } from './file-sources.service';

@Global()
@Module({ providers: [FileSourcesService], exports: [FileSourcesService] })
export class FilesModule {}
