import { Global, Module } from '@nestjs/common';
import { UserActionsRepository } from './user-actions.repository';
import { UserActionsService } from './user-actions.service';

@Global()
@Module({
  providers: [UserActionsRepository, UserActionsService],
  exports: [UserActionsService],
})
export class UserActionsModule {}
