import { ApiExtraModels, Header, Route, Routes } from '../http';
import { ApiOkResponse } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { dbPoolConnections, holdsOpen, ledgerPostingsWaiting, messagesWaiting, metricsRegistry } from '../common/metrics';
import { MessagesService } from '../messages/messages.service';
import { LedgerService } from '../ledger/ledger.service';
import { ApiError } from '../common/api-error';
import { outages } from '../common/outage';
import * as dto from './actuator.dto';
import { ActuatorRepository } from './actuator.repository';
import { ActuatorService } from './actuator.service';
import { ShutdownState } from './shutdown';

/** How long a health check waits for the database: a probe answers fast, whatever the database does. */
const HEALTH_TIMEOUT_MS = 1000;
const PUBLIC = { access: 'public' } as const;
const DATABASE_DOWN = 'the database does not answer within a second, or is a read-only standby';

@Routes('actuator')
export class ActuatorController {
  constructor(
    private readonly actuator: ActuatorService,
    private readonly healthChecks: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly ledger: LedgerService,
    private readonly repository: ActuatorRepository,
    private readonly shutdown: ShutdownState,
    private readonly messages: MessagesService,
  ) {}

  /** Every API with the permissions it requires and the roles that hold them, grouped by module. */
  @Route('GET', 'api-list', { ...PUBLIC, summary: 'List every API with its permissions and roles' })
  apiList(): dto.ApiListDto {
    return this.actuator.apiList();
  }

  /** Health: 200 when the database takes writes (it answers within a second and is no standby), else 503. */
  @Route('GET', 'health', {
    ...PUBLIC,
    summary: 'Health: whether the database takes writes',
    answer: dto.HealthDto,
    errors: [['exception.unavailable', DATABASE_DOWN]],
  })
  @HealthCheck({ swaggerDocumentation: false })
  @ApiExtraModels(dto.HealthIndicatorDto)
  async health(): Promise<HealthCheckResult> {
    const state = await this.repository.databaseState(HEALTH_TIMEOUT_MS);
    if (state !== 'writable') {
      // An outage, said once by the outage log (not a fault with a stack per probe); the probe answers 503.
      const message = state === 'read-only' ? 'The database is a read-only standby' : 'The database does not answer';
      outages.seen(new Error(message), 'the health check');
      throw Object.assign(new ApiError('exception.unavailable', message), { retryAfterSeconds: 1 });
    }
    if (outages.inProgress()) outages.recovered();
    return this.healthChecks.check([async () => this.indicators.check('database').up()]);
  }

  /** For a load balancer: as `health`, and 503 once a shutdown starts, while the instance still serves (SHUTDOWN_DELAY_SECONDS). */
  @Route('GET', 'health/readiness', {
    ...PUBLIC,
    summary: 'Readiness: whether the database takes writes, 503 once the instance is shutting down',
    answer: dto.HealthDto,
    errors: [['exception.unavailable', `the instance is shutting down, or ${DATABASE_DOWN}`]],
  })
  @HealthCheck({ swaggerDocumentation: false })
  readiness(): Promise<HealthCheckResult> {
    if (this.shutdown.isDraining) throw new ApiError('exception.unavailable', 'This instance is shutting down');
    return this.health();
  }

  /** For an orchestrator: whether the process runs. It reads no database, so a database outage does not make every instance restart. */
  @Route('GET', 'health/liveness', { ...PUBLIC, summary: 'Liveness: the process answers, without reading the database' })
  @HealthCheck({ swaggerDocumentation: false })
  liveness(): dto.LivenessDto {
    return { status: 'ok' };
  }

  /** Which service and API release answers, with its build (package version, start time, commit): for clients and monitors. */
  @Route('GET', 'info', { ...PUBLIC, summary: 'Service name, API version and build' })
  info(): dto.InfoDto {
    return this.actuator.info();
  }

  /** Recomputes every coin balance from its ledger entries and checks every operation sums to zero. */
  @Route('GET', 'ledger-check', { summary: 'Check the ledger', access: ['LEDGER_AUDITOR'] })
  async ledgerCheck(): Promise<dto.LedgerCheckDto> {
    const result = await this.ledger.check();
    return { status: 'ok', balanced: result.mismatches.length === 0, ...result };
  }

  /**
   * The Prometheus text format: request durations by route template, requests in flight, the database pool, the ledger, holds, idempotent
   * replays, failed logins, webhook deliveries, messages, the process. A scraper presents `Authorization: Bearer <METRICS_TOKEN>`.
   */
  @Route('GET', 'prometheus', {
    summary: 'Prometheus metrics',
    access: { permissions: ['ACTUATOR_METRICS_VIEWER'], orToken: 'metricsToken' },
  })
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOkResponse({ description: 'Metrics in the Prometheus text format 0.0.4', content: { 'text/plain': { schema: { type: 'string' } } } })
  async prometheusMetrics(): Promise<string> {
    const pool = this.repository.pool();
    for (const [state, value] of Object.entries(pool)) dbPoolConnections.set({ state }, value);
    holdsOpen.set(await this.repository.openHolds());
    ledgerPostingsWaiting.set(this.ledger.waiting());
    for (const [status, value] of Object.entries(await this.messages.counts())) messagesWaiting.set({ status }, value);
    return metricsRegistry.metrics();
  }
}
