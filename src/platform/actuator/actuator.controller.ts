import { Controller, Get, Header } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public, RequirePermissions, RequirePermissionsOrToken } from '../access/access.decorators';
import { dbPoolConnections, holdsOpen, ledgerPostingsWaiting, metricsRegistry } from '../common/metrics';
import { LedgerService } from '../ledger/ledger.service';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ApiError } from '../common/api-error';
import { ApiListDto, HealthDto, HealthIndicatorDto, InfoDto, LedgerCheckDto, LivenessDto } from './actuator.dto';
import { ActuatorRepository } from './actuator.repository';
import { ActuatorService } from './actuator.service';
import { ShutdownState } from './shutdown';

@ApiTags('actuator')
@Controller('actuator')
export class ActuatorController {
  constructor(
    private readonly actuator: ActuatorService,
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly ledger: LedgerService,
    private readonly repository: ActuatorRepository,
    private readonly shutdown: ShutdownState,
  ) {}

  /** Every API with the permissions it requires and the roles that hold them, grouped by module. */
  @Get('api-list')
  @Public()
  @ApiOperation({ summary: 'List every API with its permissions and roles', operationId: 'apiList' })
  @ApiOkResponse({ type: ApiListDto })
  apiList(): ApiListDto {
    return this.actuator.apiList();
  }

  /** Readiness: answers 200 when the database answers a ping, else 503. */
  @Get('health')
  @Public()
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({ summary: 'Health with a database ping', operationId: 'health' })
  @ApiOkResponse({ type: HealthDto })
  @ApiServiceUnavailableResponse({ description: 'The database does not answer', type: ErrorResponseDto })
  @ApiExtraModels(HealthIndicatorDto)
  check(): Promise<HealthCheckResult> {
    return this.health.check([() => this.db.pingCheck('database', { timeout: 3000 })]);
  }

  /**
   * For a load balancer or an orchestrator: whether to send this instance requests. As `health`, and 503 from the
   * moment a shutdown starts, while the instance still serves the requests that reach it (SHUTDOWN_DELAY_SECONDS).
   */
  @Get('health/readiness')
  @Public()
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({ summary: 'Readiness: a database ping, 503 once the instance is shutting down', operationId: 'readiness' })
  @ApiOkResponse({ type: HealthDto })
  @ApiServiceUnavailableResponse({ description: 'The instance is shutting down, or the database does not answer', type: ErrorResponseDto })
  readiness(): Promise<HealthCheckResult> {
    if (this.shutdown.isDraining) throw new ApiError('exception.unavailable', 'This instance is shutting down');
    return this.check();
  }

  /**
   * For an orchestrator: whether the process runs. It reads no database, so a database outage does not make every
   * instance restart.
   */
  @Get('health/liveness')
  @Public()
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({ summary: 'Liveness: the process answers, without reading the database', operationId: 'liveness' })
  @ApiOkResponse({ type: LivenessDto })
  liveness(): LivenessDto {
    return { status: 'ok' };
  }

  /**
   * Which service and API release answers, with its build (package version, start time, commit): for clients and
   * monitors, without a token.
   */
  @Get('info')
  @Public()
  @ApiOperation({ summary: 'Service name, API version and build', operationId: 'info' })
  @ApiOkResponse({ type: InfoDto })
  info(): InfoDto {
    return this.actuator.info();
  }

  /** Recomputes every coin balance from its ledger entries and checks every operation sums to zero. */
  @Get('ledger-check')
  @RequirePermissions('LEDGER_AUDITOR')
  @ApiOperation({ summary: 'Check the ledger', operationId: 'ledgerCheck' })
  @ApiOkResponse({ type: LedgerCheckDto })
  async ledgerCheck(): Promise<LedgerCheckDto> {
    const result = await this.ledger.check();
    return { status: 'ok', balanced: result.mismatches.length === 0, ...result };
  }

  /**
   * The Prometheus text format: request durations by route template, requests in flight, the database
   * pool, ledger operations, postings waiting for a group, holds, idempotent replays, failed logins, webhook deliveries, the event
   * loop and the process. For a scraper: `Authorization: Bearer <METRICS_TOKEN>`.
   */
  @Get('prometheus')
  @RequirePermissionsOrToken('metricsToken', 'ACTUATOR_METRICS_VIEWER')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({ summary: 'Prometheus metrics', operationId: 'prometheusMetrics' })
  @ApiOkResponse({ description: 'Metrics in the Prometheus text format 0.0.4', content: { 'text/plain': { schema: { type: 'string' } } } })
  async prometheus(): Promise<string> {
    const pool = this.repository.pool();
    for (const [state, value] of Object.entries(pool)) dbPoolConnections.set({ state }, value);
    holdsOpen.set(await this.repository.openHolds());
    ledgerPostingsWaiting.set(this.ledger.waiting());
    return metricsRegistry.metrics();
  }
}
