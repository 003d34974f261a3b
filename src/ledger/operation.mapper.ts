import { amountOf } from '../common/json-decimal';
import { scaleOf } from '../common/money';
import type { OperationDto } from './dto/operation.dto';
import type { OperationRow } from './operation.projection';

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
    from: row.from_coin ? { serial: row.from_coin, organizationId: row.from_organization_id } : null,
    to: row.to_coin ? { serial: row.to_coin, organizationId: row.to_organization_id } : null,
    reversalOf: row.reversal_of,
    transactions: (row.entries ?? []).map((e) => ({
      id: e.id,
      coinSerial: e.coinSerial,
      amount: amountOf(e.amount, scaleOf(e.fraction)),
      createdAt: new Date(e.createdAt).toISOString(),
    })),
  };
}
