import { Injectable } from '@nestjs/common';
import { PayeeLookups } from '../../money-movement/coins/payee-lookups';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { MAX_UNPAGED_RECORDS, Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { ContactBookRepository, ContactRow, ContactValues } from './contact-book.repository';
import type { ContactRecordDto, ContactViewDto, CreateContactDto, UpdateContactDto } from './dto/contact.dto';

function toContact(row: ContactRow): ContactRecordDto {
  return {
    id: row.id,
    name: row.name,
    phoneNumber: row.phone_number,
    email: row.email,
    coinSerial: row.coin_serial,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Each user's own contact book: nobody else's contacts are seen or touched (404). */
@Injectable()
export class ContactBookService {
  constructor(
    private readonly contacts: ContactBookRepository,
    private readonly uow: UnitOfWork,
    private readonly lookups: PayeeLookups,
  ) {}

  /** One contact; one already in the book by phone number or e-mail is a 409. */
  async create(principal: Principal, dto: CreateContactDto): Promise<ContactRecordDto> {
    return this.uow.run(async () => {
      const [created] = await this.contacts.insertNew(principal.userId, [await this.values(dto, 'phoneNumber')]);
      if (!created) throw new ApiError('exception.contact.duplicate');
      return toContact(created);
    });
  }

  /** Many at once: answers only the contacts this call created, skipping ones already in the book by phone or e-mail. */
  async createMany(principal: Principal, dtos: CreateContactDto[]): Promise<ContactRecordDto[]> {
    const values: ContactValues[] = [];
    for (const [i, dto] of dtos.entries()) values.push(await this.values(dto, `contacts[${i}].phoneNumber`));
    return this.uow.run(async () => (await this.contacts.insertNew(principal.userId, values)).map(toContact));
  }

  /** Every contact of the caller by name, at most MAX_UNPAGED_RECORDS (`truncated` when there are more). */
  async all(principal: Principal): Promise<{ records: ContactRecordDto[]; truncated: boolean }> {
    const { total, rows } = await this.contacts.page(principal.userId, undefined, 0, MAX_UNPAGED_RECORDS);
    return { records: rows.map(toContact), truncated: total > rows.length };
  }

  async view(principal: Principal, dto: ContactViewDto): Promise<Page<ContactRecordDto>> {
    const { offset, limit } = pageWindow(dto);
    const { total, rows } = await this.contacts.page(principal.userId, dto.filter?.text, offset, limit);
    return pageOf(dto, total, rows.map(toContact));
  }

  async update(principal: Principal, id: string, dto: UpdateContactDto): Promise<ContactRecordDto> {
    if (dto.coinSerial) await this.checkCoin(dto.coinSerial, 'coinSerial');
    return this.uow.run(async () => {
      const row = await this.contacts.update(principal.userId, id, {
        name: dto.name,
        phoneNumber: dto.phoneNumber,
        email: dto.email,
        coinSerial: dto.coinSerial,
      });
      if (!row) throw new ApiError('exception.contact.not_found');
      if (row === 'duplicate') throw new ApiError('exception.contact.duplicate');
      if (row === 'unreachable') throw ApiError.invalid('phoneNumber', 'a contact needs a phoneNumber, an email or a coinSerial');
      return toContact(row);
    });
  }

  async delete(principal: Principal, id: string): Promise<ContactRecordDto> {
    const row = await this.contacts.delete(principal.userId, id);
    if (!row) throw new ApiError('exception.contact.not_found');
    return toContact(row);
  }

  /**
   * The coin to pay the contact in `currency`: its own coin, else the main coin of the registered user it is. A payee
   * lookup, counted against the caller and `address` (a contact is any e-mail or phone number, added at no cost).
   */
  async coin(principal: Principal, address: string, id: string, currency: string): Promise<string> {
    await this.lookups.count(principal, address, `contact:${id}:${currency}`);
    const contact = await this.contacts.get(principal.userId, id);
    if (!contact) throw new ApiError('exception.contact.not_found');
    const serial = await this.contacts.coinOf(contact, currency);
    if (!serial) throw new ApiError('exception.contact.no_coin');
    return serial;
  }

  private async values(dto: CreateContactDto, field: string): Promise<ContactValues> {
    if (dto.phoneNumber == null && dto.email == null && dto.coinSerial == null) {
      throw ApiError.invalid(field, 'a contact needs a phoneNumber, an email or a coinSerial');
    }
    if (dto.coinSerial) await this.checkCoin(dto.coinSerial, field.replace('phoneNumber', 'coinSerial'));
    return { name: dto.name, phoneNumber: dto.phoneNumber ?? null, email: dto.email ?? null, coinSerial: dto.coinSerial ?? null };
  }

  private async checkCoin(serial: string, field: string): Promise<void> {
    if (!(await this.contacts.isClientCoin(serial))) throw ApiError.invalid(field, 'must be an open client coin');
  }
}
