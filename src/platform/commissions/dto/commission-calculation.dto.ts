import { IsIn } from 'class-validator';
import type { JsonDecimal } from '../../common/json-decimal';
import { ApiAmount } from '../../common/money-validators';
import { Serial } from '../../common/validators';
import { OPERATION_FLOW_NAMES, OperationFlow } from '../../ledger/operation-types';
import { COMMISSION_PAYERS } from '../fee';
import { CalculationDto } from './calculation.dto';
import { Amount, ApiEnum, ApiExample, ApiUuidOrNull } from '../../common/dto-fields';

export class CommissionCalculationRequestDto {
  @ApiEnum(OPERATION_FLOW_NAMES, 'client_transaction_transfer')
  @IsIn(OPERATION_FLOW_NAMES)
  flow: OperationFlow;

  /** The payer's client coin; leave it out when the payer is outside the service (the bank of a bank top-up). Never a technical coin. */
  @Serial({ required: false })
  payerCoin?: string;

  /** The payee's client coin; leave it out when the payee is outside the service. Never a technical coin. */
  @Serial({ required: false })
  payeeCoin?: string;

  /** What the payer asks to move: a positive decimal with no more decimals than the currency allows. */
  @Amount('100.00')
  amount: string | number;
}

/** The price of a flow between two coins, as `POST /commissions/calculate` answers it. */
export class CommissionCalculationDto extends CalculationDto {
  @ApiEnum(OPERATION_FLOW_NAMES)
  flow: string;
  @ApiExample('USD')
  currency: string;
  @ApiAmount(100, 'What the payer asked to move')
  amount: JsonDecimal;
  @ApiAmount(1, "The operator's fee")
  commission: JsonDecimal;
  @ApiAmount(101, 'What leaves the payer')
  payerAmount: JsonDecimal;
  @ApiAmount(100, 'What reaches the payee')
  payeeAmount: JsonDecimal;
  /** Who bears the fee under the rule that applies (`sender` when none does). */
  @ApiEnum(COMMISSION_PAYERS)
  payer: string;
  /** The rule that priced it; null when no rule applies (no fee). */
  @ApiUuidOrNull()
  ruleId: string | null;
}

export class OperationFlowDto {
  /** The flow's key, as commission profiles name it (`flow`). */
  @ApiEnum(OPERATION_FLOW_NAMES)
  id: string;
  @ApiEnum(OPERATION_FLOW_NAMES)
  name: string;
  description: string;
  /** The flow's name in the family's vocabulary (`exchange_transaction` for `exchange`, …), as `processType`. */
  @ApiExample('client_transaction_transfer')
  code: string;
  /** The family's name of the operation the flow makes, as history answers it (`type`). */
  @ApiExample('client_transaction_transfer')
  processType: string;
  /** How the money moves in the family's terms: `issue` into the service, `redeem` out of it, `transfer` within it. */
  @ApiEnum(['issue', 'redeem', 'transfer'])
  transactionType: 'issue' | 'redeem' | 'transfer';
  /** Between two currencies (exchange): its profiles may name the issuer bought (`POST …/commission-profiles/multi-currency`). */
  isMultiCurrency: boolean;
  /**
   * The type of the coin the money leaves: `client` (a customer's, a merchant's or a cash desk's coin) or `system` (an
   * issuer's settlement or reserve coin). A gate payment's is the paying client coin; a card top-up through a gate
   * runs the other way (out of the gate-settlement coin).
   */
  @ApiEnum(['client', 'system'])
  srcCoinType: 'client' | 'system';
  /** The type of the coin the money enters, as `srcCoinType`. */
  @ApiEnum(['client', 'system'])
  destCoinType: 'client' | 'system';
}

export class OperationFlowListDto {
  status: 'ok';
  message: string;
  records: OperationFlowDto[];
}
