import { Injectable } from '@nestjs/common';
import { amountOf } from '../../platform/common/json-decimal';
import { scaleOf } from '../../platform/common/money';
import type { DashboardDayCountDto, DashboardDto } from './dashboard.dto';
import { DashboardRepository, DayCountRow } from './dashboard.repository';

const DAY_MS = 24 * 3600 * 1000;

/** The operator's dashboard: one answer feeding the console's charts. */
@Injectable()
export class DashboardService {
  constructor(private readonly dashboard: DashboardRepository) {}

  async figures(days: number, now = new Date()): Promise<DashboardDto> {
    const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY_MS);
    const from = new Date(to.getTime() - days * DAY_MS);
    const dates = Array.from({ length: days }, (_, i) => new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10));
    const [volumes, holds, failed, webhooks] = await Promise.all([
      this.dashboard.volumes(from, to),
      this.dashboard.openHolds(),
      this.dashboard.failedLogins(from, to),
      this.dashboard.webhookFailures(from, to),
    ]);
    return {
      status: 'ok',
      message: 'OK',
      from: dates[0],
      to: dates[dates.length - 1],
      volumes: volumes.map((v) => ({
        date: v.date,
        currency: v.currency,
        operations: v.operations,
        amount: amountOf(v.amount, scaleOf(v.fraction)),
      })),
      openHolds: holds.map((h) => ({ currency: h.currency, holds: h.holds, amount: amountOf(h.amount, scaleOf(h.fraction)) })),
      failedLogins: everyDay(dates, failed),
      webhookFailures: everyDay(dates, webhooks),
    };
  }
}

function everyDay(dates: string[], rows: DayCountRow[]): DashboardDayCountDto[] {
  const byDate = new Map(rows.map((r) => [r.date, r.count]));
  return dates.map((date) => ({ date, count: byDate.get(date) ?? 0 }));
}
