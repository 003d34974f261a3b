import { Body, Caller, ClientAddress, Principal, Route, Routes } from '../../platform/http';
import { OperationResultDto } from '../../platform/ledger/dto/operation.dto';
import { PAYEE_LOOKUP_LIMIT } from '../coins/payee-lookups';
import * as dto from './dto/transfer.dto';
import { TransfersService } from './transfers.service';

const CREATOR = { access: ['TRANSFER_CREATOR'] } as const;

@Routes('transfers')
export class TransfersController {
  constructor(private readonly transfers: TransfersService) {}

  /** Moves money from one of the caller's coins to another of its currency; paid by smart card, a `card_payment` (a blocked card: 409). */
  @Route('POST', '', {
    ...CREATOR,
    idempotent: { groupCommit: true },
    summary: 'Transfer between coins',
    errors: [
      ['exception.coin.not_found', 'a coin does not exist, or the payer coin is not the caller’s'],
      ['exception.payment_tool.not_found', 'a card does not exist, or the payer card is not the caller’s'],
    ],
  })
  async createTransfer(@Body() body: dto.TransferRequestDto, @Caller() caller: Principal): Promise<OperationResultDto> {
    return { status: 'ok', message: 'Transfer completed', process: await this.transfers.transfer(caller, body) };
  }

  /** What the payer and the payee would see, without moving money. */
  @Route('POST', 'calculate', {
    ...CREATOR,
    summary: 'Calculate a transfer',
    status: 200,
    errors: ['exception.coin.not_found', ['exception.smart_card.blocked', 'a smart card named is blocked'], PAYEE_LOOKUP_LIMIT],
  })
  calculateTransfer(
    @Body() body: dto.TransferRequestDto,
    @Caller() caller: Principal,
    @ClientAddress() address: string,
  ): Promise<dto.TransferCalculationDto> {
    return this.transfers.calculateForPayer(caller, body, address);
  }
}
