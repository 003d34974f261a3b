import { Injectable } from '@nestjs/common';
import { currentTransaction } from './transaction-context';

interface Watch {
  pattern: RegExp;
  committed: () => void;
}

/**
 * Tells this process's caches, at once, that it changed a table they read: `Database` shows it every statement;
 * a statement that changes rows of a watched table calls the watch's `committed` once its transaction
 * commits (at once for a statement outside one). Other nodes hear the same change through NOTIFY; this closes the
 * gap on the node that made it, so its next request never sees what it just changed as it was.
 */
@Injectable()
export class WriteWatch {
  private readonly watches: Watch[] = [];

  /** `committed` runs after each commit that updated or deleted (with `inserts`, also inserted) rows of `tables`. */
  watch(tables: readonly string[], committed: () => void, options: { inserts?: boolean } = {}): void {
    const verbs = options.inserts ? 'UPDATE|DELETE\\s+FROM|INSERT\\s+INTO' : 'UPDATE|DELETE\\s+FROM';
    this.watches.push({ pattern: new RegExp(`\\b(?:${verbs})\\s+(?:${tables.join('|')})\\b`, 'i'), committed });
  }

  /** Called by Database after each statement. */
  ran(sql: string): void {
    for (const watch of this.watches) {
      if (!watch.pattern.test(sql)) continue;
      const open = currentTransaction();
      if (!open) watch.committed();
      else if (!open.onCommit.includes(watch.committed)) open.onCommit.push(watch.committed);
    }
  }
}
