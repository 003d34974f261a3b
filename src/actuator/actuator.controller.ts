import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from '../access/access.decorators';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ApiListDto, InfoDto } from './actuator.dto';
import { ActuatorService } from './actuator.service';

@ApiTags('actuator')
@Controller('actuator')
export class ActuatorController {
  constructor(
    private readonly actuator: ActuatorService,
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
  ) {}

  /** Every API with the permissions it requires and the roles that hold them, grouped by module. */
  @Get('api-list')
  @Public()
  @ApiOperation({ summary: 'List every API with its permissions and roles' })
  @ApiOkResponse({ type: ApiListDto })
  apiList(): ApiListDto {
    return this.actuator.apiList();
  }

  /** Readiness: answers 200 when the database answers a ping, else 503. */
  @Get('health')
  @Public()
  @HealthCheck()
  @ApiOperation({ summary: 'Health with a database ping' })
  @ApiServiceUnavailableResponse({ description: 'The database does not answer', type: ErrorResponseDto })
  check(): Promise<HealthCheckResult> {
    return this.health.check([() => this.db.pingCheck('database', { timeout: 3000 })]);
  }

  @Get('info')
  @Public()
  @ApiOperation({ summary: 'Service name, API version and build' })
  @ApiOkResponse({ type: InfoDto })
  info(): InfoDto {
    return this.actuator.info();
  }
}
