import { Body, Caller, ClientAddress, Principal, Query, Route, Routes, UuidParam } from '../../platform/http';
import { ContactBookService } from './contact-book.service';
import * as dto from './dto/contact.dto';

const OWNER = { access: ['CONTACT_BOOK_OWNER'] } as const;
const ONE = { ...OWNER, errors: ['exception.contact.not_found'] } as const;

/** The caller's own contact book. */
@Routes('contact-book')
export class ContactBookController {
  constructor(private readonly contacts: ContactBookService) {}

  /** Adds a contact: a name and at least a phone number, an e-mail or an open client coin; the book holds a phone number or e-mail once. */
  @Route('POST', 'contact', { ...OWNER, summary: 'Add a contact', errors: ['exception.contact.duplicate'] })
  async createContact(@Body() body: dto.CreateContactDto, @Caller() caller: Principal): Promise<dto.ContactResponseDto> {
    return { status: 'ok', message: 'Contact added', contact: await this.contacts.create(caller, body) };
  }

  /** Adds many contacts at once and answers only those this call created: ones already in the book (by phone or e-mail) are skipped. */
  @Route('POST', 'contact/list', { ...OWNER, summary: 'Add many contacts; answers only the new ones' })
  async createContacts(@Body() body: dto.CreateContactsDto, @Caller() caller: Principal): Promise<dto.ContactListResponseDto> {
    const records = await this.contacts.createMany(caller, body.contacts);
    return { status: 'ok', message: `${records.length} contact(s) added`, records };
  }

  /** Every contact of the caller, by name, unpaged (at most 10,000): the family's client lists them so to pick a payee. */
  @Route('GET', 'contact', { ...OWNER, summary: "Every contact of the caller's book" })
  async listAllContacts(@Caller() caller: Principal): Promise<dto.ContactBookDto> {
    const { records, truncated } = await this.contacts.all(caller);
    const contacts = records.map((c) => ({ ...c, nickname: c.name, firstName: c.name, lastName: null, ownerId: caller.userId }));
    return { status: 'ok', message: 'OK', contacts, truncated };
  }

  /** The caller's own contacts by name; `filter.text` finds part of a name, phone number or e-mail. */
  @Route('POST', 'view', { ...OWNER, summary: "Search the caller's contacts, by name", status: 200 })
  viewContacts(@Body() body: dto.ContactViewDto, @Caller() caller: Principal): Promise<dto.ContactPageDto> {
    return this.contacts.view(caller, body);
  }

  /** Changes the fields sent; null clears a field, but a contact keeps a phone number, an e-mail or a coin (400). */
  @Route('PATCH', 'contact/:id', {
    ...ONE,
    summary: 'Change a contact (null clears a field)',
    errors: [...ONE.errors, 'exception.contact.duplicate'],
  })
  async updateContact(
    @UuidParam('id') id: string,
    @Body() body: dto.UpdateContactDto,
    @Caller() caller: Principal,
  ): Promise<dto.ContactResponseDto> {
    return { status: 'ok', message: 'Contact changed', contact: await this.contacts.update(caller, id, body) };
  }

  /** Deletes one of the caller's contacts and answers it. */
  @Route('DELETE', 'contact/:id', { ...ONE, summary: 'Delete a contact' })
  async deleteContact(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.ContactResponseDto> {
    return { status: 'ok', message: 'Contact deleted', contact: await this.contacts.delete(caller, id) };
  }

  /** The coin to pay the contact in: its own, or the main coin of the user it is; a payee lookup, limited as `POST /coins/serial` is. */
  @Route('GET', 'contact/:id/coin', {
    ...OWNER,
    summary: "A contact's coin in a currency",
    errors: ['exception.contact.not_found', 'exception.contact.no_coin', ['exception.rate_limited', 'no payee lookup left (Retry-After)']],
  })
  async getContactCoin(
    @UuidParam('id') id: string,
    @Query() query: dto.ContactCoinQueryDto,
    @Caller() caller: Principal,
    @ClientAddress() address: string,
  ): Promise<dto.ContactCoinResponseDto> {
    return { status: 'ok', message: 'OK', coinSerial: await this.contacts.coin(caller, address, id, query.currency) };
  }
}
