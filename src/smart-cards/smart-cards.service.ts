import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Principal } from '../access/principal';
import { ApiError } from '../common/api-error';
import { UnitOfWork } from '../database/unit-of-work';
import { LedgerService } from '../ledger/ledger.service';
import { PaymentToolsService } from '../payment-tools/payment-tools.service';
import { generateCardNumber, maskedNumber } from './card-number';
import type { CardStatus, IssueSmartCardDto, SmartCardDto } from './dto/smart-card.dto';
import { SmartCardRow, SmartCardsRepository } from './smart-cards.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Smart cards: each stands for one client coin of its organization. A transfer pays with one as
 * `paymentTool: {type: "SMART_CARD", srcValue: <card id>}` (PaymentToolsService, through the resolver
 * registered here); a blocked card neither pays nor receives (409). Another organization's card is a
 * 404 wherever it is named, as if it did not exist.
 */
@Injectable()
export class SmartCardsService implements OnModuleInit {
  constructor(
    private readonly cards: SmartCardsRepository,
    private readonly ledger: LedgerService,
    private readonly tools: PaymentToolsService,
    private readonly uow: UnitOfWork,
  ) {}

  onModuleInit(): void {
    this.tools.register('SMART_CARD', (value, owner) => this.coinOf(value, owner));
  }

  /** Issues a card for one of the caller's coins; the generated number is answered masked and never kept (only its last four digits). */
  async issue(principal: Principal, dto: IssueSmartCardDto): Promise<SmartCardDto> {
    const coin = this.tools.payer({ coins: await this.ledger.read([dto.coinSerial]), holds: [] }, dto.coinSerial, principal, 'coinSerial');
    if (coin.closed_at) throw new ApiError('exception.coin.closed', `Coin ${coin.serial} is closed`);
    const number = generateCardNumber();
    return this.uow.run(async () => {
      const id = await this.cards.insert({
        organizationId: principal.organizationId,
        coinSerial: coin.serial,
        name: dto.name,
        last4: number.slice(-4),
        createdBy: principal.userId,
      });
      return toCardDto((await this.cards.own(principal.organizationId, id))!);
    });
  }

  async list(principal: Principal): Promise<SmartCardDto[]> {
    return (await this.cards.list(principal.organizationId)).map(toCardDto);
  }

  /** One of the caller's cards. Any id that names none — malformed, unknown, another organization's — is a 404 (specification section 7). */
  async get(principal: Principal, id: string): Promise<SmartCardDto> {
    const row = UUID.test(id) ? await this.cards.own(principal.organizationId, id) : undefined;
    if (!row) throw notFound(id);
    return toCardDto(row);
  }

  /** Blocks or unblocks one of the caller's cards; setting the status it has already changes nothing. */
  async setStatus(principal: Principal, id: string, status: CardStatus): Promise<SmartCardDto> {
    return this.uow.run(async () => {
      if (!(await this.cards.setStatus(principal.organizationId, id, status))) throw notFound(id);
      return toCardDto((await this.cards.own(principal.organizationId, id))!);
    });
  }

  /** The payment-tool resolver: a card id → its coin; a blocked card is refused. */
  private async coinOf(value: string, owner?: string): Promise<string | undefined> {
    if (!UUID.test(value)) return undefined;
    const card = await this.cards.resolve(value, owner);
    if (!card) return undefined;
    if (card.status === 'blocked') throw new ApiError('exception.smart_card.blocked', `Smart card ${value} is blocked`);
    return card.coin_serial;
  }
}

function notFound(id: string): ApiError {
  return new ApiError('exception.smart_card.not_found', `No smart card ${id.slice(0, 64)}`);
}

function toCardDto(row: SmartCardRow): SmartCardDto {
  return {
    id: row.id,
    name: row.name,
    maskedNumber: maskedNumber(row.last4),
    coinSerial: row.coin_serial,
    currency: row.code,
    symbol: row.symbol,
    status: row.status,
    provider: row.provider,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
