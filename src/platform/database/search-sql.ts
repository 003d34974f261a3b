import type { NameSort } from '../common/paging.dto';

/** A LIKE or ILIKE pattern matching any value that contains `text` as it is: its `%`, `_` and backslash match only themselves. */
export function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The ORDER BY of a NameSort over the table aliased `alias`: its name whatever the case, or its creation; ties by id. */
export function nameSortOrder(alias: string, { key, direction }: NameSort): string {
  return key === 'name'
    ? `lower(${alias}.name) ${direction}, ${alias}.id ${direction}`
    : `${alias}.created_at ${direction}, ${alias}.id ${direction}`;
}
