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
  symbol: string | null;
  fraction: string;
  reversal_of: string | null;
  /** Who posted the operation, and the role they acted as (null before roles were kept). */
  created_by: string | null;
  created_by_role: string | null;
  from_coin: CoinJson | null;
  to_coin: CoinJson | null;
  sender: PartyJson | null;
  recipient: PartyJson | null;
  entries: EntryJson[] | null;
}

/**
 * A coin an operation or a leg names, as the family's screens show it: its name, its owner's id and name (nothing
 * else of another organization), whether it is a system coin (and which), its issuer and currency.
 */
export interface CoinJson {
  serial: string;
  name: string;
  type: 'client' | 'system';
  /** A system coin's kind (bank_settlement, commission, …): it names the kind of each leg. */
  systemKind: string | null;
  organizationId: string;
  organizationName: string;
  issuerId: string;
  /** The issuer's serial number, as text (a bigint). */
  sn: string;
  code: string;
  symbol: string | null;
  fraction: string;
}

/** The organization on one side of an operation, with its contact where known. */
export interface PartyJson {
  organizationId: string;
  fullName: string;
  email: string | null;
  phoneNumber: string | null;
}

/** A ledger entry as the projection's JSON carries it, with its coin. */
export interface EntryJson {
  id: string;
  leg: number;
  amount: string;
  createdAt: string;
  coin: CoinJson;
}

/** The CoinJson of a coin serial expression: lookups by key only (the posting's generic plan cannot know how few rows there are). */
const coinJson = (serial: string) =>
  `(SELECT json_build_object('serial', k.serial::text, 'name', k.name, 'type', k.type, 'systemKind', k.system_kind,
                             'organizationId', k.organization_id, 'organizationName', kg.name, 'issuerId', k.issuer_id,
                             'sn', ki.sn::text, 'code', kc.code, 'symbol', kc.symbol, 'fraction', kc.fraction::text)
      FROM coins k JOIN currencies kc ON kc.id = k.currency_id JOIN issuers ki ON ki.id = k.issuer_id
      JOIN organizations kg ON kg.id = k.organization_id WHERE k.serial = ${serial})`;
/** The party JSON of an organization id expression. */
export const partyJson = (organization: string) =>
  `(SELECT json_build_object('organizationId', g.id, 'fullName', g.name, 'email', g.email, 'phoneNumber', g.phone_number)
      FROM organizations g WHERE g.id = ${organization})`;

/** The operation's own columns, from a row source aliased `o` joined to its currency aliased `cu`. */
export const OPERATION_COLUMNS = `o.id, o.type, o.status, o.request_identifier, o.request_status, o.created_at, o.updated_at, o.description,
       o.custom_information, o.amount::text AS amount, o.commission::text AS commission, cu.code, cu.symbol, cu.fraction::text AS fraction,
       o.reversal_of, o.created_by, o.created_by_role, ${coinJson('o.from_coin')} AS from_coin, ${coinJson('o.to_coin')} AS to_coin,
       ${partyJson('o.from_organization_id')} AS sender, ${partyJson('o.to_organization_id')} AS recipient`;

/**
 * Its entries as a JSON array, from a row source of entries (ledger_entries or the posting's CTE) and a condition.
 * Each entry's coin is a lookup by the coin's key rather than a join: the posting runs as a generic prepared plan,
 * which cannot know how few entries there are and would otherwise hash-join a sequential scan of every coin.
 */
export function entriesJson(source: string, where = ''): string {
  return `(SELECT json_agg(json_build_object('id', e.id::text, 'leg', e.leg, 'amount', e.amount::text, 'createdAt', e.created_at,
                                  'coin', ${coinJson('e.coin_serial')}) ORDER BY e.id)
     FROM ${source} e ${where})`;
}

/** Everything about the operations of `FROM operations o …`. */
export const SELECT_OPERATION = `SELECT ${OPERATION_COLUMNS},
       ${entriesJson('ledger_entries', 'WHERE e.operation_id = o.id')} AS entries
  FROM operations o JOIN currencies cu ON cu.id = o.currency_id`;
