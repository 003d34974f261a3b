import { ApiParam, Body, Caller, Param, Principal, Route, Routes, UuidParam } from '../../platform/http';
import * as dto from './dto/smart-card.dto';
import { SmartCardsService } from './smart-cards.service';

const OWNER = { access: ['SMART_CARD_OWNER'] } as const;
const CALLERS_COIN = ['exception.coin.not_found', "the coin does not exist or is not the caller's"] as const;
const MINE = { ...OWNER } as const;
const STATUS = { ...OWNER, status: 200, errors: ['exception.smart_card.not_found'] } as const;
/** The card under each of the family's names for it. */
const mine = (message: string, card: dto.SmartCardDto): dto.MySmartCardResponseDto => ({
  status: 'ok',
  message,
  card,
  smartCard: card,
  records: [card],
});

@Routes('smart-cards')
export class SmartCardsController {
  constructor(private readonly cards: SmartCardsService) {}

  /** Issues a card for one of the caller's coins; the answer shows its number masked. */
  @Route('POST', '', { ...OWNER, summary: 'Issue a smart card', errors: [CALLERS_COIN, 'exception.coin.closed'] })
  async issueSmartCard(@Body() body: dto.IssueSmartCardDto, @Caller() caller: Principal): Promise<dto.SmartCardResponseDto> {
    return { status: 'ok', message: 'Smart card issued', card: await this.cards.issue(caller, body) };
  }

  /** Issues a card for `associatedCoinSerial`; with `cardNumber` (a card the holder holds) it is paid to by that number, kept hashed. */
  @Route('POST', 'my', {
    ...MINE,
    summary: 'Issue a smart card (the family client’s form)',
    errors: [
      ['exception.validation', 'a malformed body, or a cardNumber failing the Luhn check'],
      CALLERS_COIN,
      'exception.coin.closed',
      ['exception.conflict.duplicate', 'another card has this number'],
    ],
  })
  async createMySmartCard(@Body() body: dto.CreateMySmartCardDto, @Caller() caller: Principal): Promise<dto.MySmartCardResponseDto> {
    return mine('Smart card issued', await this.cards.issueMine(caller, body));
  }

  /** Renames, blocks (`active: false`) or unblocks one of the caller's cards, named by its id or by its masked number as answered. */
  @Route('PATCH', 'my/number/:card', {
    ...MINE,
    summary: 'Change one of the caller’s smart cards',
    errors: [
      ['exception.validation', 'nothing to change, or a full card number in the path'],
      'exception.smart_card.not_found',
      ['exception.conflict.duplicate', 'several of the caller’s cards have this masked number'],
    ],
  })
  @ApiParam({ name: 'card', type: String, description: 'The card id, or its masked number as answered (`**** **** **** 4242`)' })
  async updateMySmartCard(
    @Param('card') ref: string,
    @Body() body: dto.UpdateMySmartCardDto,
    @Caller() caller: Principal,
  ): Promise<dto.MySmartCardResponseDto> {
    return mine('Smart card changed', await this.cards.updateMine(caller, ref, body));
  }

  /** The caller's organization's cards, newest first. */
  @Route('GET', 'my', { ...OWNER, summary: "The caller's smart cards" })
  async listMySmartCards(@Caller() caller: Principal): Promise<dto.SmartCardListDto> {
    return { status: 'ok', message: 'OK', records: await this.cards.list(caller) };
  }

  /** One of the caller's cards; any id naming none of them, a malformed one included, is a 404 (specification section 7). */
  @Route('GET', 'my/:id', { ...MINE, summary: 'One of the caller’s smart cards', errors: ['exception.smart_card.not_found'] })
  @ApiParam({
    name: 'id',
    type: String,
    description: 'The card id; any value that names none of the caller’s cards, a malformed one included, answers 404',
    extensions: { 'x-malformed-is-not-found': true },
  })
  async getMySmartCard(@Param('id') id: string, @Caller() caller: Principal): Promise<dto.MySmartCardResponseDto> {
    return mine('OK', await this.cards.get(caller, id));
  }

  /** Blocks a card: it pays nothing until unblocked. Blocking a blocked card changes nothing. */
  @Route('POST', ':id/block', { ...STATUS, summary: 'Block a smart card' })
  async blockSmartCard(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.SmartCardResponseDto> {
    return { status: 'ok', message: 'Smart card blocked', card: await this.cards.setStatus(caller.organizationId, id, 'blocked') };
  }

  /** Unblocks a card. Unblocking an active card changes nothing. */
  @Route('POST', ':id/unblock', { ...STATUS, summary: 'Unblock a smart card' })
  async unblockSmartCard(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.SmartCardResponseDto> {
    return { status: 'ok', message: 'Smart card unblocked', card: await this.cards.setStatus(caller.organizationId, id, 'active') };
  }
}
