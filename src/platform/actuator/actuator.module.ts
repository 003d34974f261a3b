import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { ActuatorController } from './actuator.controller';
import { ActuatorRepository } from './actuator.repository';
import { ActuatorService } from './actuator.service';
import { ShutdownState } from './shutdown';

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [ActuatorController],
  providers: [ActuatorService, ActuatorRepository, ShutdownState],
})
export class ActuatorModule {}
