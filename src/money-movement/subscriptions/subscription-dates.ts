import { addDays, addMonths, CalendarDate } from '../../platform/scheduler/scheduler.clock';
import type { SubscriptionType } from './dto/subscription.dto';

/** The due date of occurrence `k` (0: the start date), always counted from the start (31 January monthly: 28 February, 31 March). */
export function dueDateOf(start: CalendarDate, period: SubscriptionType, frequency: number, k: number): CalendarDate {
  switch (period) {
    case 'DAILY':
      return addDays(start, k * frequency);
    case 'WEEKLY':
      return addDays(start, 7 * k * frequency);
    case 'MONTHLY':
      return addMonths(start, k * frequency);
    case 'ANNUALLY':
      return addMonths(start, 12 * k * frequency);
  }
}
