import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import type { LockedCoin } from '../../platform/ledger/ledger.types';
import { LedgerService } from '../../platform/ledger/ledger.service';
import { CARD_NUMBER_PATTERN, PaymentToolsService } from '../../platform/payment-tools/payment-tools.service';
import { cardNumberHash, generateCardNumber, isLuhnValid, maskedNumber } from './card-number';
import type { CardStatus, CreateMySmartCardDto, IssueSmartCardDto, SmartCardDto, UpdateMySmartCardDto } from './dto/smart-card.dto';
import { SmartCardRow, SmartCardsRepository } from './smart-cards.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The injection token of the key card numbers are hashed under (cardNumberKey). */
export const CARD_NUMBER_KEY = Symbol('CARD_NUMBER_KEY');

/**
 * A virtual card a card-issuing provider (a payment gate) issued for a coin: the smart card that stands for it
 * keeps the provider's name and reference, and the last four digits of its number (the full number stays with
 * the provider).
 */
export interface ProviderCard {
  /** The provider's name (a gate provider's code), 1 to 100 characters. */
  provider: string;
  /** The provider's own reference of the card, 1 to 200 characters; one card per provider and reference. */
  reference: string;
  /** The last four digits of the card's number. */
  last4: string;
}

/**
 * Smart cards: each stands for one client coin of its organization. A transfer pays with one as
 * `paymentTool: {type: "SMART_CARD", srcValue: <card id>}` (PaymentToolsService, through the resolver
 * registered here); a blocked card neither pays nor receives (409). Another organization's card is a
 * 404 wherever it is named, as if it did not exist.
 *
 * For other modules (exported):
 * - a flow that takes a card as its payer (merchant payments) resolves it through
 *   `PaymentToolsService.resolve('SMART_CARD', id, parameter, payerOrganizationId)` — or `coinOf` — and
 *   then moves money from that coin through the ledger kernel like any coin payment;
 * - a card-issuing provider (payment gates) checks the coin with `issuableCoin` before asking the
 *   provider for a card, then records what the provider issued with `issue(principal, dto, providerCard)`,
 *   and finds a card again by the provider's reference with `byProviderReference`.
 */
@Injectable()
export class SmartCardsService implements OnModuleInit {
  constructor(
    private readonly cards: SmartCardsRepository,
    private readonly ledger: LedgerService,
    private readonly tools: PaymentToolsService,
    private readonly uow: UnitOfWork,
    @Inject(CARD_NUMBER_KEY) private readonly numberKey: Buffer,
  ) {}

  onModuleInit(): void {
    this.tools.register(
      'SMART_CARD',
      (value, owner) => this.coinOf(value, owner),
      async (organizationId) =>
        (await this.cards.list(organizationId)).map((row) => {
          const card = toCardDto(row);
          return {
            coinSerial: card.coinSerial,
            id: card.id,
            name: card.name,
            active: card.active,
            cardNumber: card.cardNumber,
            expirationDate: card.expirationDate,
            expirationStatus: card.expirationStatus,
          };
        }),
    );
  }

  /**
   * The coin a new card of the caller would stand for: one of the caller's organization's client coins (else 404;
   * a technical coin is a 400), not closed (409).
   */
  async issuableCoin(principal: Principal, coinSerial: string): Promise<LockedCoin> {
    const coin = this.tools.payer({ coins: await this.ledger.read([coinSerial]), holds: [] }, coinSerial, principal, 'coinSerial');
    if (coin.closed_at) throw new ApiError('exception.coin.closed', `Coin ${coin.serial} is closed`);
    return coin;
  }

  /**
   * Issues a card for one of the caller's coins. Without `issuedBy`, the service's own card: a generated number
   * (answered masked, never kept but for its last four digits). With it, the card a provider issued (a second
   * card of the same provider reference is a 409).
   */
  async issue(
    principal: Principal,
    dto: IssueSmartCardDto,
    issuedBy?: ProviderCard,
    own: { cardNumber?: string; status?: CardStatus } = {},
  ): Promise<SmartCardDto> {
    const coin = await this.issuableCoin(principal, dto.coinSerial);
    if (issuedBy) assertProviderCard(issuedBy);
    // The service's own card: its number (the holder's, or generated) is kept as its keyed hash, so a payment can find
    // the card by it, and its last four digits; the number itself goes no further than this function.
    const number = issuedBy ? undefined : (own.cardNumber ?? generateCardNumber());
    const numberHash = number === undefined ? null : cardNumberHash(this.numberKey, number);
    const last4 = issuedBy?.last4 ?? number!.slice(-4);
    return this.uow.run(async () => {
      if (numberHash && (await this.cards.numberTaken(numberHash))) {
        throw new ApiError('exception.conflict.duplicate', 'Another smart card has this number');
      }
      const id = await this.cards.insert({
        numberHash,
        status: own.status,
        organizationId: principal.organizationId,
        coinSerial: coin.serial,
        name: dto.name,
        last4,
        provider: issuedBy?.provider ?? null,
        providerReference: issuedBy?.reference ?? null,
        createdBy: principal.userId,
      });
      if (!id) {
        throw new ApiError(
          'exception.conflict.duplicate',
          `Provider ${issuedBy!.provider} already has a card with reference ${issuedBy!.reference}`,
        );
      }
      return toCardDto((await this.cards.own(principal.organizationId, id))!);
    });
  }

  /**
   * Records the card a card-issuing provider issued when a gate transaction for it finished (no caller then: the
   * provider's outcome may arrive by callback or reconciler), in the open transaction. The organization and coin
   * are the gate transaction's, checked when it was asked for. Answers the card's id; a card the provider already
   * has under this reference is answered as it is.
   */
  async recordIssued(card: {
    organizationId: string;
    coinSerial: string;
    name: string;
    createdBy: string;
    issuedBy: ProviderCard;
  }): Promise<string> {
    assertProviderCard(card.issuedBy);
    return this.uow.run(async () => {
      const id = await this.cards.insert({
        organizationId: card.organizationId,
        coinSerial: card.coinSerial,
        name: card.name,
        last4: card.issuedBy.last4,
        provider: card.issuedBy.provider,
        providerReference: card.issuedBy.reference,
        createdBy: card.createdBy,
      });
      return id ?? (await this.cards.byProviderReference(card.issuedBy.provider, card.issuedBy.reference))!.id;
    });
  }

  /**
   * A card of the caller as the family's client creates it: for `associatedCoinSerial`, blocked when `active` is false,
   * with the holder's `cardNumber` when given (16 digits passing the Luhn check, else a 400).
   */
  async issueMine(principal: Principal, dto: CreateMySmartCardDto): Promise<SmartCardDto> {
    if (dto.cardNumber !== undefined && !isLuhnValid(dto.cardNumber)) throw ApiError.invalid('cardNumber', 'must pass the Luhn check');
    return this.issue(principal, { coinSerial: dto.associatedCoinSerial, name: dto.name }, undefined, {
      cardNumber: dto.cardNumber,
      status: dto.active === false ? 'blocked' : 'active',
    });
  }

  /**
   * Renames, blocks (`active: false`) or unblocks one of the caller's cards, named by its id or by its masked number as
   * answered (`**** **** **** 4242`: the family's client names a card so) when exactly one of the caller's cards ends
   * with those digits (several: a 409). A full number is refused (a 400): it would travel in the request's path, which
   * is logged.
   */
  async updateMine(principal: Principal, ref: string, dto: UpdateMySmartCardDto): Promise<SmartCardDto> {
    if (dto.name === undefined && dto.active === undefined) throw ApiError.invalid('body', 'must change name or active');
    if (/^[0-9 ]{13,}$/.test(ref)) throw ApiError.invalid('id', 'must be the card id or its masked number, never the full number');
    return this.uow.run(async () => {
      const id = await this.idOf(principal.organizationId, ref);
      if (dto.name !== undefined) await this.cards.rename(principal.organizationId, id, dto.name);
      if (dto.active !== undefined) await this.cards.setStatus(principal.organizationId, id, dto.active ? 'active' : 'blocked');
      return toCardDto((await this.cards.own(principal.organizationId, id))!);
    });
  }

  /** The id of the organization's card a reference names: its id, or its masked number when only one card matches. */
  private async idOf(organizationId: string, ref: string): Promise<string> {
    if (UUID.test(ref)) {
      if (!(await this.cards.own(organizationId, ref))) throw notFound(ref);
      return ref;
    }
    const last4 = /^[*\s]*([0-9]{4})$/.exec(ref)?.[1];
    const ids = last4 ? await this.cards.idsByLast4(organizationId, last4) : [];
    if (ids.length === 0) throw notFound(ref);
    if (ids.length > 1) {
      throw new ApiError('exception.conflict.duplicate', `Several of your cards end with ${last4}: name the card by its id`);
    }
    return ids[0];
  }

  /** The caller's organization's cards, newest first. */
  async list(principal: Principal): Promise<SmartCardDto[]> {
    return (await this.cards.list(principal.organizationId)).map(toCardDto);
  }

  /** One of the caller's cards. Any id that names none — malformed, unknown, another organization's — is a 404 (specification section 7). */
  async get(principal: Principal, id: string): Promise<SmartCardDto> {
    const row = UUID.test(id) ? await this.cards.own(principal.organizationId, id) : undefined;
    if (!row) throw notFound(id);
    return toCardDto(row);
  }

  /** Blocks or unblocks one of the organization's cards (another's or an unknown one: 404); setting the status it has changes nothing. */
  async setStatus(organizationId: string, id: string, status: CardStatus): Promise<SmartCardDto> {
    return this.uow.run(async () => {
      if (!(await this.cards.setStatus(organizationId, id, status))) throw notFound(id);
      return toCardDto((await this.cards.own(organizationId, id))!);
    });
  }

  /** The card a provider issued, by the provider's reference, with the organization it belongs to; undefined when there is none. */
  async byProviderReference(provider: string, reference: string): Promise<{ organizationId: string; card: SmartCardDto } | undefined> {
    const row = await this.cards.byProviderReference(provider, reference);
    return row && { organizationId: row.organization_id, card: toCardDto(row) };
  }

  /**
   * The coin a card pays from or receives into (the SMART_CARD payment-tool resolver): undefined when the id names no
   * card, or with `owner`, none of that organization's; a blocked card is a 409. Inside a transaction the card row is
   * share-locked until it ends, so a payment and a concurrent block are ordered.
   */
  async coinOf(cardId: string, owner?: string): Promise<string | undefined> {
    if (CARD_NUMBER_PATTERN.test(cardId)) return this.coinOfNumber(cardId, owner);
    if (!UUID.test(cardId)) return undefined;
    const card = await this.cards.resolve(cardId, owner);
    if (!card) return undefined;
    if (card.status === 'blocked') throw new ApiError('exception.smart_card.blocked', `Smart card ${cardId} is blocked`);
    return card.coin_serial;
  }

  /**
   * The coin of the card a 16-digit number names, found by the number's keyed hash. Its errors never repeat the number
   * (they are answered, and may be logged): an unknown number is a 404 of its own, a blocked card a 409 naming the last
   * four digits.
   */
  private async coinOfNumber(number: string, owner?: string): Promise<string> {
    const card = await this.cards.resolveByNumber(cardNumberHash(this.numberKey, number), owner);
    if (!card) throw new ApiError('exception.payment_tool.not_found', `No smart card with the number ${maskedNumber(number.slice(-4))}`);
    if (card.status === 'blocked') {
      throw new ApiError('exception.smart_card.blocked', `Smart card ${maskedNumber(number.slice(-4))} is blocked`);
    }
    return card.coin_serial;
  }
}

/** What a provider answered must fit the table: a programming error of the calling module otherwise. */
function assertProviderCard(card: ProviderCard): void {
  if (!/^[0-9]{4}$/.test(card.last4)) throw new Error(`A provider card's last4 is four digits, got "${card.last4}"`);
  if (!(card.provider.length >= 1 && card.provider.length <= 100)) throw new Error('A provider name has 1 to 100 characters');
  if (!(card.reference.length >= 1 && card.reference.length <= 200)) throw new Error('A provider reference has 1 to 200 characters');
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
    cardNumber: maskedNumber(row.last4),
    active: row.status === 'active',
    expirationDate: row.expires_on,
    expirationStatus: row.expired ? 'EXPIRED' : 'ACTIVE',
    organizationId: row.organization_id,
    associatedCoinSerial: row.coin_serial,
    currencyCode: row.code,
    paymentSystem: row.provider ?? 'internal',
  };
}
