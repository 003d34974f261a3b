/**
 * The one projection of an operation: the columns every answer about an operation is made of,
 * read by OperationsRepository and answered by the posting statement itself (so a request that
 * just moved money needs no read-back). `toOperationDto` maps it.
 */
export interface OperationRow {
  id: string;
  type: string;
  status: string;
  request_identifier: string | null;
  request_status: string | null;
  created_at: Date;
  updated_at: Date;
  description: string | null;
  custom_information: string | null;
  amount: string;
  commission: string;
  code: string;
  fraction: string;
  from_coin: string | null;
  to_coin: string | null;
  from_organization_id: string | null;
  to_organization_id: string | null;
  reversal_of: string | null;
  entries: EntryJson[] | null;
}

/** A ledger entry as the projection's JSON carries it. */
export interface EntryJson {
  id: string;
  coinSerial: string;
  amount: string;
  createdAt: string;
  code: string;
  fraction: string;
}

/** The operation's own columns, from a row source aliased `o` joined to its currency aliased `cu`. */
export const OPERATION_COLUMNS = `o.id, o.type, o.status, o.request_identifier, o.request_status, o.created_at, o.updated_at, o.description,
       o.custom_information, o.amount::text AS amount, o.commission::text AS commission, cu.code, cu.fraction::text AS fraction,
       o.from_coin::text AS from_coin, o.to_coin::text AS to_coin, o.from_organization_id, o.to_organization_id, o.reversal_of`;

/** Its entries as a JSON array, from a row source of entries (ledger_entries or the posting's CTE) and a condition. */
export function entriesJson(source: string, where = ''): string {
  return `(SELECT json_agg(json_build_object('id', e.id::text, 'coinSerial', e.coin_serial::text, 'amount', e.amount::text,
                                  'createdAt', e.created_at, 'code', ec.code, 'fraction', ec.fraction::text) ORDER BY e.id)
     FROM ${source} e JOIN currencies ec ON ec.id = e.currency_id ${where})`;
}

/** Everything about the operations of `FROM operations o …`. */
export const SELECT_OPERATION = `SELECT ${OPERATION_COLUMNS},
       ${entriesJson('ledger_entries', 'WHERE e.operation_id = o.id')} AS entries
  FROM operations o JOIN currencies cu ON cu.id = o.currency_id`;
