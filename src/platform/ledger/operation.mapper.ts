import { amountOf } from '../common/json-decimal';
import { scaleOf } from '../common/money';
import type {
  IssuerRefDto,
  LegType,
  OperationChildDto,
  OperationCoinDto,
  OperationDto,
  OperationLegDto,
  OperationPartyDto,
} from './dto/operation.dto';
import type { CoinJson, EntryJson, OperationRow, PartyJson } from './operation.projection';

function issuer(json: CoinJson): IssuerRefDto {
  return { id: json.issuerId, sn: Number(json.sn), currency: json.code, symbol: json.symbol };
}

/** One shape for every coin an operation names: its own from/to, each leg's, each exchange side's. */
function coin(json: CoinJson): OperationCoinDto {
  return {
    serial: json.serial,
    name: json.name,
    organizationId: json.organizationId,
    organizationName: json.organizationName,
    technical: json.type !== 'client',
    type: json.type,
    issuer: issuer(json),
  };
}

/** Contact fields the service does not know are left out: clients compare them to tell incoming from outgoing. */
function party(json: PartyJson | null): OperationPartyDto | null {
  if (!json) return null;
  return {
    organizationId: json.organizationId,
    fullName: json.fullName,
    ...(json.email ? { email: json.email } : {}),
    ...(json.phoneNumber ? { phoneNumber: json.phoneNumber } : {}),
  };
}

/** A leg's kind from the operation's type and the system coins it moves between (LEG_TYPES). */
function legType(operationType: string, from: CoinJson, to: CoinJson): LegType {
  if (operationType === 'reversal') return from.systemKind === 'commission' ? 'commission_reversal' : 'reversal';
  if (to.systemKind === 'commission') return 'commission';
  if (from.systemKind === 'bank_settlement') return 'issue';
  if (to.systemKind === 'bank_settlement') return 'redeem';
  return 'transfer';
}

function legs(operationType: string, entries: EntryJson[]): OperationLegDto[] {
  const byLeg = new Map<number, { from?: EntryJson; to?: EntryJson }>();
  for (const e of entries) {
    const leg = byLeg.get(e.leg) ?? {};
    if (e.amount.startsWith('-')) leg.from = e;
    else leg.to = e;
    byLeg.set(e.leg, leg);
  }
  // An operation's entries share their time: written once.
  let at: string | undefined;
  let iso = '';
  const isoOf = (createdAt: string) => {
    if (createdAt !== at) [at, iso] = [createdAt, new Date(createdAt).toISOString()];
    return iso;
  };
  return [...byLeg.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([, { from, to }]) => {
      if (!from || !to) return [];
      const performedAt = isoOf(from.createdAt);
      return [
        {
          id: from.id,
          type: legType(operationType, from.coin, to.coin),
          amount: amountOf(to.amount, scaleOf(to.coin.fraction)),
          issuer: issuer(from.coin),
          from: coin(from.coin),
          to: coin(to.coin),
          performedAt,
          updatedAt: performedAt,
          createdAt: performedAt,
        },
      ];
    });
}

/**
 * An exchange's two sides, as the family's screens destructure them (`const [from, to] = process.children`): the sold
 * side holds the legs out of the sold coin — the sold amount's, then the fee's — and the bought side the leg into the
 * bought coin. Any other operation has none.
 */
function exchangeSides(op: Omit<OperationDto, 'children'>): OperationChildDto[] {
  const { from, to } = op;
  if (op.type !== 'exchange' || !from || !to) return [];
  const out = op.transactions.filter((l) => l.from.serial === from.serial);
  const into = op.transactions.filter((l) => l.to.serial === to.serial);
  const sold = out.find((l) => l.type !== 'commission');
  const bought = into[0];
  if (!sold || !bought) return [];
  const side = { status: op.status, updatedAt: op.updatedAt, children: [] };
  return [
    {
      id: sold.id,
      type: 'withdraw_exchange_transaction',
      ...side,
      coin: from,
      outgoingAmount: sold.amount,
      incomingAmount: null,
      createdAt: sold.createdAt,
      transactions: out,
    },
    {
      id: bought.id,
      type: 'topup_exchange_transaction',
      ...side,
      coin: to,
      outgoingAmount: null,
      incomingAmount: bought.amount,
      createdAt: bought.createdAt,
      transactions: into,
    },
  ];
}

/** The one mapping of an operation to what clients see. */
export function toOperationDto(row: OperationRow): OperationDto {
  const scale = scaleOf(row.fraction);
  const operation: Omit<OperationDto, 'children'> = {
    id: row.id,
    type: row.type,
    status: row.status,
    requestIdentifier: row.request_identifier,
    requestStatus: row.request_status,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    description: row.description,
    customInformation: row.custom_information,
    amount: amountOf(row.amount, scale),
    commission: amountOf(row.commission, scale),
    currency: row.code,
    from: row.from_coin && coin(row.from_coin),
    to: row.to_coin && coin(row.to_coin),
    sender: party(row.sender),
    recipient: party(row.recipient),
    reversalOf: row.reversal_of,
    createdBy: row.created_by ? { id: row.created_by, role: row.created_by_role } : null,
    transactions: legs(row.type, row.entries ?? []),
  };
  // Its sides added to it last (as the answer lists them), rather than the whole copied.
  const dto = operation as OperationDto;
  dto.children = exchangeSides(operation);
  return dto;
}
