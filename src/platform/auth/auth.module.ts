import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { AuthController } from './auth.controller';
import { AuthRepository } from './auth.repository';
import { AuthService } from './auth.service';
import { BearerStrategy } from './bearer.strategy';
import { PasswordRecoveryController } from './password-recovery.controller';
import { PrincipalCache } from './principal-cache';
import { ProfilePasswordController } from './profile-password.controller';
import { ReleaseController } from './release.controller';
import { SessionsController } from './sessions.controller';

@Module({
  imports: [UsersModule],
  controllers: [AuthController, SessionsController, ReleaseController, ProfilePasswordController, PasswordRecoveryController],
  providers: [AuthRepository, AuthService, BearerStrategy, PrincipalCache],
  // The change of login (people/registration) checks the current password and ends sessions as a password change does.
  exports: [AuthService],
})
export class AuthModule {}
