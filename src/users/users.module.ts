import { Module } from '@nestjs/common';
import { PasswordHasher } from './password-hasher';
import { ProfilesController } from './profiles.controller';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  controllers: [UsersController, ProfilesController],
  providers: [UsersRepository, UsersService, PasswordHasher],
  exports: [UsersRepository, UsersService, PasswordHasher],
})
export class UsersModule {}
