import { amountOf } from '../common/json-decimal';
import { Money, scaleOf } from '../common/money';
import type { IssuerRefDto, OperationCoinDto, OperationDto, OperationLegDto, OperationPartyDto } from './dto/operation.dto';
import type { CoinJson, EntryJson, OperationRow, PartyJson } from './operation.projection';

function coin(json: CoinJson | null): OperationCoinDto | null {
  return json && { serial: json.serial, issuer: { id: json.issuerId, currency: json.code, symbol: json.symbol } };
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

function legs(entries: EntryJson[]): OperationLegDto[] {
  const byLeg = new Map<number, { from?: EntryJson; to?: EntryJson }>();
  for (const e of entries) {
    const leg = byLeg.get(e.leg) ?? {};
    if (e.amount.startsWith('-')) leg.from = e;
    else leg.to = e;
    byLeg.set(e.leg, leg);
  }
  return [...byLeg.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([, { from, to }]) => {
      if (!from || !to) return [];
      const issuer = (e: EntryJson): IssuerRefDto => ({ id: e.issuerId, currency: e.code, symbol: e.symbol });
      return [
        {
          id: from.id,
          amount: amountOf(new Money(to.amount), scaleOf(to.fraction)),
          issuer: issuer(from),
          from: { serial: from.coinSerial, issuer: issuer(from) },
          to: { serial: to.coinSerial, issuer: issuer(to) },
          createdAt: new Date(from.createdAt).toISOString(),
        },
      ];
    });
}

/** The one mapping of an operation to what clients see. */
export function toOperationDto(row: OperationRow): OperationDto {
  const scale = scaleOf(row.fraction);
  return {
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
    from: coin(row.from_coin),
    to: coin(row.to_coin),
    sender: party(row.sender),
    recipient: party(row.recipient),
    reversalOf: row.reversal_of,
    createdBy: row.created_by ? { id: row.created_by, role: row.created_by_role } : null,
    transactions: legs(row.entries ?? []),
  };
}
