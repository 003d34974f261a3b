import { monitorEventLoopDelay } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The service's Prometheus metrics, in one registry. Labels are route templates, methods, statuses,
 * types and outcomes — never a path, an id, a login or an amount (no user data in any label).
 * Scraped at GET /api/v1/actuator/prometheus.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'finapi_' });

export const httpRequestDuration = new Histogram({
  name: 'finapi_http_request_duration_seconds',
  help: 'HTTP request duration by route template, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

export const httpRequestsInFlight = new Gauge({
  name: 'finapi_http_requests_in_flight',
  help: 'HTTP requests being served',
  registers: [metricsRegistry],
});

export const ledgerOperations = new Counter({
  name: 'finapi_ledger_operations_total',
  help: 'Operations the ledger wrote (committed), by type and status',
  labelNames: ['type', 'status'] as const,
  registers: [metricsRegistry],
});

export const ledgerGroupSize = new Histogram({
  name: 'finapi_ledger_group_size',
  help: 'Grouped postings (transfers) written in one transaction, per group (group commit); _count is the groups, _sum the postings',
  buckets: [1, 2, 4, 8, 16, 32, 64],
  registers: [metricsRegistry],
});

export const ledgerPostedAlone = new Counter({
  name: 'finapi_ledger_grouped_postings_alone_total',
  help: 'Grouped postings posted on their own after all: a coin was held by another transaction (locked), or their group failed (split)',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});

export const ledgerPostingsWaiting = new Gauge({
  name: 'finapi_ledger_postings_waiting',
  help: 'Grouped postings waiting for a group: queued behind the groups being written (a group commit backlog), read at scrape time',
  registers: [metricsRegistry],
});

export const holdsPlaced = new Counter({
  name: 'finapi_holds_placed_total',
  help: 'Holds the ledger placed on coins (committed)',
  registers: [metricsRegistry],
});

export const idempotentReplays = new Counter({
  name: 'finapi_idempotent_replays_total',
  help: 'Requests answered from a stored answer of the same Idempotency-Key',
  registers: [metricsRegistry],
});

export const failedLogins = new Counter({
  name: 'finapi_failed_password_checks_total',
  help: 'Failed password checks (logins and password changes), and logins refused On Hold (whose password is not checked)',
  registers: [metricsRegistry],
});

export const usersHeld = new Counter({
  name: 'finapi_users_held_total',
  help: 'Users put On Hold after three failed password checks in a row',
  registers: [metricsRegistry],
});

export const webhookDeliveries = new Counter({
  name: 'finapi_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome: delivered, retry (will be tried again), failed (given up)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const messagesSent = new Counter({
  name: 'finapi_messages_total',
  help: 'Attempts to send a message (a one-time code or a notice) by channel (email, sms, log, none) and outcome: sent, retry (will be tried again), failed (given up)',
  labelNames: ['channel', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const messagesWaiting = new Gauge({
  name: 'finapi_messages',
  help: 'Messages not sent, by status: pending (queued or being retried), failed (undeliverable: given up), read at scrape time',
  labelNames: ['status'] as const,
  registers: [metricsRegistry],
});

/** Read on each scrape from whatever the app registers (the database pool, the open holds). */
export const dbPoolConnections = new Gauge({
  name: 'finapi_db_pool_connections',
  help: 'Database pool connections by state: total, idle, waiting (clients queued for one)',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
});

export const holdsOpen = new Gauge({
  name: 'finapi_holds_open',
  help: 'Holds open on coins (money reserved for pending operations), read at scrape time',
  registers: [metricsRegistry],
});

const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
new Gauge({
  name: 'finapi_event_loop_lag_p99_seconds',
  help: 'The 99th percentile of the event-loop delay since the previous scrape',
  registers: [metricsRegistry],
  collect() {
    this.set(loopDelay.percentile(99) / 1e9);
    loopDelay.reset();
  },
});
