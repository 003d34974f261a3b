import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { UuidParam } from '../../platform/common/validators';
import {
  CreateMySmartCardDto,
  IssueSmartCardDto,
  MySmartCardResponseDto,
  SmartCardListDto,
  SmartCardResponseDto,
  UpdateMySmartCardDto,
} from './dto/smart-card.dto';
import { SmartCardsService } from './smart-cards.service';

@ApiTags('smart-cards')
@Controller('smart-cards')
export class SmartCardsController {
  constructor(private readonly cards: SmartCardsService) {}

  /** Issues a card for one of the caller's coins; the answer shows its number masked. */
  @Post()
  @RequirePermissions('SMART_CARD_OWNER')
  @ApiOperation({ summary: 'Issue a smart card', operationId: 'issueSmartCard' })
  @ApiCreatedResponse({ type: SmartCardResponseDto })
  @ApiNotFoundResponse({ description: "exception.coin.not_found: the coin does not exist or is not the caller's", type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.coin.closed', type: ErrorResponseDto })
  async issue(@Body() dto: IssueSmartCardDto, @CurrentPrincipal() principal: Principal): Promise<SmartCardResponseDto> {
    return { status: 'ok', message: 'Smart card issued', card: await this.cards.issue(principal, dto) };
  }

  /**
   * Issues a card for one of the caller's coins as the family's client asks for one (`associatedCoinSerial`); with
   * `cardNumber`, the number of a card the holder holds, to be paid to by it (kept only as a keyed hash).
   */
  @Post('my')
  @RequirePermissions('SMART_CARD_OWNER')
  @ApiOperation({ summary: 'Issue a smart card (the family client’s form)', operationId: 'createMySmartCard' })
  @ApiCreatedResponse({ type: MySmartCardResponseDto })
  @ApiBadRequestResponse({
    description: 'exception.validation: a malformed body, or a cardNumber failing the Luhn check',
    type: ErrorResponseDto,
  })
  @ApiNotFoundResponse({ description: "exception.coin.not_found: the coin does not exist or is not the caller's", type: ErrorResponseDto })
  @ApiConflictResponse({
    description: 'exception.coin.closed; exception.conflict.duplicate: another card has this number',
    type: ErrorResponseDto,
  })
  async createMine(@Body() dto: CreateMySmartCardDto, @CurrentPrincipal() principal: Principal): Promise<MySmartCardResponseDto> {
    const card = await this.cards.issueMine(principal, dto);
    return { status: 'ok', message: 'Smart card issued', card, smartCard: card, records: [card] };
  }

  /**
   * Renames, blocks (`active: false`) or unblocks one of the caller's cards, named by its id or by its masked number
   * as answered (when no other card of the caller ends with the same four digits).
   */
  @Patch('my/number/:card')
  @RequirePermissions('SMART_CARD_OWNER')
  @ApiParam({ name: 'card', type: String, description: 'The card id, or its masked number as answered (`**** **** **** 4242`)' })
  @ApiOperation({ summary: 'Change one of the caller’s smart cards', operationId: 'updateMySmartCard' })
  @ApiOkResponse({ type: MySmartCardResponseDto })
  @ApiBadRequestResponse({
    description: 'exception.validation: nothing to change, or a full card number in the path',
    type: ErrorResponseDto,
  })
  @ApiNotFoundResponse({ description: 'exception.smart_card.not_found', type: ErrorResponseDto })
  @ApiConflictResponse({
    description: 'exception.conflict.duplicate: several of the caller’s cards have this masked number',
    type: ErrorResponseDto,
  })
  async updateMine(
    @Param('card') ref: string,
    @Body() dto: UpdateMySmartCardDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<MySmartCardResponseDto> {
    const card = await this.cards.updateMine(principal, ref, dto);
    return { status: 'ok', message: 'Smart card changed', card, smartCard: card, records: [card] };
  }

  /** The caller's organization's cards, newest first. */
  @Get('my')
  @RequirePermissions('SMART_CARD_OWNER')
  @ApiOperation({ summary: "The caller's smart cards", operationId: 'listMySmartCards' })
  @ApiOkResponse({ type: SmartCardListDto })
  async list(@CurrentPrincipal() principal: Principal): Promise<SmartCardListDto> {
    return { status: 'ok', message: 'OK', records: await this.cards.list(principal) };
  }

  /** One of the caller's cards. An invalid id — malformed, unknown or another organization's — is a 404 (specification section 7). */
  @Get('my/:id')
  @RequirePermissions('SMART_CARD_OWNER')
  @ApiParam({
    name: 'id',
    type: String,
    description: 'The card id; any value that names none of the caller’s cards, a malformed one included, answers 404',
    extensions: { 'x-malformed-is-not-found': true },
  })
  @ApiOperation({ summary: 'One of the caller’s smart cards', operationId: 'getMySmartCard' })
  @ApiOkResponse({ type: MySmartCardResponseDto })
  @ApiNotFoundResponse({ description: 'exception.smart_card.not_found', type: ErrorResponseDto })
  async get(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<MySmartCardResponseDto> {
    const card = await this.cards.get(principal, id);
    return { status: 'ok', message: 'OK', card, smartCard: card, records: [card] };
  }

  /** Blocks a card: it pays nothing until unblocked. Blocking a blocked card changes nothing. */
  @Post(':id/block')
  @HttpCode(200)
  @RequirePermissions('SMART_CARD_OWNER')
  @ApiParam({ name: 'id', schema: { type: 'string', format: 'uuid' } })
  @ApiOperation({ summary: 'Block a smart card', operationId: 'blockSmartCard' })
  @ApiOkResponse({ type: SmartCardResponseDto })
  @ApiNotFoundResponse({ description: 'exception.smart_card.not_found', type: ErrorResponseDto })
  async block(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<SmartCardResponseDto> {
    return { status: 'ok', message: 'Smart card blocked', card: await this.cards.setStatus(principal.organizationId, id, 'blocked') };
  }

  /** Unblocks a card. Unblocking an active card changes nothing. */
  @Post(':id/unblock')
  @HttpCode(200)
  @RequirePermissions('SMART_CARD_OWNER')
  @ApiParam({ name: 'id', schema: { type: 'string', format: 'uuid' } })
  @ApiOperation({ summary: 'Unblock a smart card', operationId: 'unblockSmartCard' })
  @ApiOkResponse({ type: SmartCardResponseDto })
  @ApiNotFoundResponse({ description: 'exception.smart_card.not_found', type: ErrorResponseDto })
  async unblock(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<SmartCardResponseDto> {
    return { status: 'ok', message: 'Smart card unblocked', card: await this.cards.setStatus(principal.organizationId, id, 'active') };
  }
}
