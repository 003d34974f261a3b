import { Module } from '@nestjs/common';
import { UsersModule } from '../../platform/users/users.module';
import { MediaFilesController, MediaLinksController, ProfileDocumentsController } from './media-files.controller';
import { MediaFilesRepository } from './media-files.repository';
import { MediaFilesService } from './media-files.service';
import { ProfileCache } from './profile-cache';
import { ProfilesController } from './profiles.controller';
import { ProfilesRepository } from './profiles.repository';
import { ProfilesService } from './profiles.service';

@Module({
  imports: [UsersModule],
  controllers: [ProfilesController, MediaFilesController, MediaLinksController, ProfileDocumentsController],
  providers: [ProfilesService, ProfilesRepository, ProfileCache, MediaFilesService, MediaFilesRepository],
  exports: [ProfilesService],
})
export class ProfilesModule {}
