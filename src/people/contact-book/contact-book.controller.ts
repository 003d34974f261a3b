import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query, Req } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { PAYEE_LOOKUPS_LIMITED } from '../../money-movement/coins/payee-lookups';
import { ApiRequest, CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { clientAddress } from '../../platform/common/http';
import { UuidParam } from '../../platform/common/validators';
import { ContactBookService } from './contact-book.service';
import {
  ContactBookDto,
  ContactCoinQueryDto,
  ContactCoinResponseDto,
  ContactListResponseDto,
  ContactPageDto,
  ContactResponseDto,
  ContactViewDto,
  CreateContactDto,
  CreateContactsDto,
  UpdateContactDto,
} from './dto/contact.dto';

const CONTACT_ID = { name: 'id', schema: { type: 'string', format: 'uuid' } } as const;
const NO_CONTACT = { description: "exception.contact.not_found: no such contact in the caller's book", type: ErrorResponseDto };

/** The caller's own contact book. */
@ApiTags('contact-book')
@Controller('contact-book')
export class ContactBookController {
  constructor(private readonly contacts: ContactBookService) {}

  /**
   * The caller adds a contact to their own book: a name and at least a phone number, an e-mail or a coin (an open
   * client coin). One already in the book by phone number or e-mail is a 409.
   */
  @Post('contact')
  @RequirePermissions('CONTACT_BOOK_OWNER')
  @ApiOperation({ summary: 'Add a contact', operationId: 'createContact' })
  @ApiCreatedResponse({ type: ContactResponseDto })
  @ApiConflictResponse({
    description: 'exception.contact.duplicate: a contact with this phone number or e-mail exists',
    type: ErrorResponseDto,
  })
  async create(@Body() dto: CreateContactDto, @CurrentPrincipal() principal: Principal): Promise<ContactResponseDto> {
    return { status: 'ok', message: 'Contact added', contact: await this.contacts.create(principal, dto) };
  }

  /** Adds many contacts at once and answers only those this call created: ones already in the book (by phone or e-mail) are skipped. */
  @Post('contact/list')
  @RequirePermissions('CONTACT_BOOK_OWNER')
  @ApiOperation({ summary: 'Add many contacts; answers only the new ones', operationId: 'createContacts' })
  @ApiCreatedResponse({ type: ContactListResponseDto })
  async createMany(@Body() dto: CreateContactsDto, @CurrentPrincipal() principal: Principal): Promise<ContactListResponseDto> {
    const records = await this.contacts.createMany(principal, dto.contacts);
    return { status: 'ok', message: `${records.length} contact(s) added`, records };
  }

  /** Every contact of the caller, by name, unpaged (at most 10,000): the family's client lists them so to pick a payee. */
  @Get('contact')
  @RequirePermissions('CONTACT_BOOK_OWNER')
  @ApiOperation({ summary: "Every contact of the caller's book", operationId: 'listAllContacts' })
  @ApiOkResponse({ type: ContactBookDto })
  async all(@CurrentPrincipal() principal: Principal): Promise<ContactBookDto> {
    const { records, truncated } = await this.contacts.all(principal);
    return {
      status: 'ok',
      message: 'OK',
      contacts: records.map((c) => ({ ...c, nickname: c.name, firstName: c.name, lastName: null, ownerId: principal.userId })),
      truncated,
    };
  }

  /** The caller's own contacts by name; `filter.text` finds part of a name, phone number or e-mail. */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('CONTACT_BOOK_OWNER')
  @ApiOperation({ summary: "Search the caller's contacts, by name", operationId: 'viewContacts' })
  @ApiOkResponse({ type: ContactPageDto })
  view(@Body() dto: ContactViewDto, @CurrentPrincipal() principal: Principal): Promise<ContactPageDto> {
    return this.contacts.view(principal, dto);
  }

  /**
   * Changes the fields sent of one of the caller's contacts; null clears a field, but a contact keeps a phone number,
   * an e-mail or a coin (400). Another's contact is a 404; a phone number or e-mail already in the book is a 409.
   */
  @Patch('contact/:id')
  @ApiParam(CONTACT_ID)
  @RequirePermissions('CONTACT_BOOK_OWNER')
  @ApiOperation({ summary: 'Change a contact (null clears a field)', operationId: 'updateContact' })
  @ApiOkResponse({ type: ContactResponseDto })
  @ApiNotFoundResponse(NO_CONTACT)
  @ApiConflictResponse({ description: 'exception.contact.duplicate', type: ErrorResponseDto })
  async update(
    @UuidParam('id') id: string,
    @Body() dto: UpdateContactDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ContactResponseDto> {
    return { status: 'ok', message: 'Contact changed', contact: await this.contacts.update(principal, id, dto) };
  }

  /** Deletes one of the caller's contacts and answers it; another's contact is a 404. */
  @Delete('contact/:id')
  @ApiParam(CONTACT_ID)
  @RequirePermissions('CONTACT_BOOK_OWNER')
  @ApiOperation({ summary: 'Delete a contact', operationId: 'deleteContact' })
  @ApiOkResponse({ type: ContactResponseDto })
  @ApiNotFoundResponse(NO_CONTACT)
  async delete(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<ContactResponseDto> {
    return { status: 'ok', message: 'Contact deleted', contact: await this.contacts.delete(principal, id) };
  }

  /**
   * The coin to pay the contact in a currency: the contact's own coin, or the main coin of the registered user it is. A
   * payee lookup (a contact is any e-mail or phone number), limited as `POST /coins/serial` is.
   */
  @Get('contact/:id/coin')
  @ApiParam(CONTACT_ID)
  @RequirePermissions('CONTACT_BOOK_OWNER')
  @ApiOperation({ summary: "A contact's coin in a currency", operationId: 'getContactCoin' })
  @ApiOkResponse({ type: ContactCoinResponseDto })
  @ApiNotFoundResponse({ description: 'exception.contact.not_found, or exception.contact.no_coin', type: ErrorResponseDto })
  @ApiTooManyRequestsResponse(PAYEE_LOOKUPS_LIMITED)
  async coin(
    @UuidParam('id') id: string,
    @Query() query: ContactCoinQueryDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: ApiRequest,
  ): Promise<ContactCoinResponseDto> {
    return { status: 'ok', message: 'OK', coinSerial: await this.contacts.coin(principal, clientAddress(request), id, query.currency) };
  }
}
