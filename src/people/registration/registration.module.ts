import { Module } from '@nestjs/common';
import { AuthModule } from '../../platform/auth/auth.module';
import { UsersModule } from '../../platform/users/users.module';
import { ProfilesModule } from '../profiles/profiles.module';
import { ContactController, RegistrationController } from './registration.controller';
import { RegistrationRepository } from './registration.repository';
import { RegistrationService } from './registration.service';

@Module({
  imports: [UsersModule, ProfilesModule, AuthModule],
  controllers: [RegistrationController, ContactController],
  providers: [RegistrationService, RegistrationRepository],
})
export class RegistrationModule {}
