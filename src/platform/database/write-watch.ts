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
  /** The watches each statement's text matches, kept (the texts are few) so a statement is scanned once, not per run. */
  private readonly matches = new Map<string, Watch[]>();

  /** `committed` runs after each commit that updated or deleted (with `inserts`, also inserted) rows of `tables`. */
  watch(tables: readonly string[], committed: () => void, options: { inserts?: boolean } = {}): void {
    const verbs = options.inserts ? 'UPDATE|DELETE\\s+FROM|INSERT\\s+INTO' : 'UPDATE|DELETE\\s+FROM';
    this.watches.push({ pattern: new RegExp(`\\b(?:${verbs})\\s+(?:${tables.join('|')})\\b`, 'i'), committed });
    this.matches.clear();
  }

  /** Called by Database after each statement. */
  ran(sql: string): void {
    let matched = this.matches.get(sql);
    if (!matched) {
      matched = this.watches.filter((watch) => watch.pattern.test(sql));
      // Texts with varying parts (searches' filters) could grow it without end: start over past a bound.
      if (this.matches.size >= 1_000) this.matches.clear();
      this.matches.set(sql, matched);
    }
    for (const watch of matched) {
      const open = currentTransaction();
      if (!open) watch.committed();
      else if (!open.onCommit.includes(watch.committed)) open.onCommit.push(watch.committed);
    }
  }
}
