import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
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
import { IssueSmartCardDto, SmartCardListDto, SmartCardResponseDto } from './dto/smart-card.dto';
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
  @ApiOkResponse({ type: SmartCardResponseDto })
  @ApiNotFoundResponse({ description: 'exception.smart_card.not_found', type: ErrorResponseDto })
  async get(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<SmartCardResponseDto> {
    return { status: 'ok', message: 'OK', card: await this.cards.get(principal, id) };
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
