import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { AuthController } from './auth.controller';
import { AuthRepository } from './auth.repository';
import { AuthService } from './auth.service';
import { BearerStrategy } from './bearer.strategy';
import { ReleaseController } from './release.controller';

@Module({
  imports: [UsersModule],
  controllers: [AuthController, ReleaseController],
  providers: [AuthRepository, AuthService, BearerStrategy],
})
export class AuthModule {}
