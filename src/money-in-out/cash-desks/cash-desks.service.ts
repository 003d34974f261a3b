import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { CoinsService } from '../../money-movement/coins/coins.service';
import type { CoinDto } from '../../money-movement/coins/dto/coin.dto';
import { ApiError } from '../../platform/common/api-error';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { LedgerService } from '../../platform/ledger/ledger.service';
import { OrganizationsService } from '../../platform/organizations/organizations.service';
import { CashDesksRepository } from './cash-desks.repository';
import type { CashDeskDto, CashDeskViewDto, CreateCashDeskDto } from './dto/cash-desk.dto';

/**
 * Cash desks are organizations of type `cash_desk`; their members are cashiers (`POST /users` with
 * `role: cashier, organizationId: <desk>`). A desk keeps its till's e-money in cash coins of its own,
 * one per issuer: ordinary client coins of the desk's organization, funded like any coin (a bank
 * top-up), so the desk's balance is visible to it and to staff, and a cash-in can only credit what
 * the desk holds.
 */
@Injectable()
export class CashDesksService {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly coins: CoinsService,
    private readonly uow: UnitOfWork,
    private readonly ledger: LedgerService,
    private readonly desks: CashDesksRepository,
  ) {}

  async create(dto: CreateCashDeskDto): Promise<CashDeskDto> {
    return this.uow.run(async () => {
      const id = await this.organizations.create('cash_desk', dto.name);
      const coins: CoinDto[] = [];
      for (const issuerId of new Set(dto.issuerIds ?? [])) coins.push(await this.coins.open(id, issuerId, cashCoinName(dto.name)));
      return { id, name: dto.name, coins, createdAt: new Date().toISOString() };
    });
  }

  /** Opens the desk's cash coin of an issuer; a desk has one per issuer (409 when it has it). */
  async openCoin(deskId: string, issuerId: string): Promise<CoinDto> {
    return this.uow.run(async () => {
      const desk = await this.organizations.find(deskId, true);
      if (!desk || desk.type !== 'cash_desk') throw notFound(deskId);
      if (await this.coins.usableOf(deskId, issuerId)) {
        throw new ApiError('exception.cash_desk.coin_exists', 'The cash desk already has a cash coin of this issuer');
      }
      const { rows } = await this.organizations.list('cash_desk', [deskId], 0, 1);
      return this.coins.open(deskId, issuerId, cashCoinName(rows[0].name));
    });
  }

  /**
   * Desks by name. Staff (auditors) and a desk's own cashiers see its cash coins; customers see names only. With a
   * `coinSerial` (one of the caller's coins; any for staff), only the desks holding a cash coin of its issuer.
   */
  async view(principal: Principal, dto: CashDeskViewDto): Promise<Page<CashDeskDto>> {
    const { offset, limit } = pageWindow(dto);
    let ids = dto.filter?.ids;
    if (dto.coinSerial) {
      const serving = await this.desks.desksServing((await this.visibleCoin(principal, dto.coinSerial)).issuer_id);
      ids = ids ? ids.filter((id) => serving.includes(id)) : serving;
    }
    const { total, rows } = await this.organizations.list('cash_desk', ids, offset, limit);
    const staff = principal.permissions.has('TRANSACTION_AUDITOR');
    const shown = rows.filter((r) => staff || r.id === principal.organizationId).map((r) => r.id);
    const coins = await this.coins.ofOrganizations(shown);
    return pageOf(
      dto,
      total,
      rows.map((r) => ({ id: r.id, name: r.name, coins: coins.get(r.id) ?? [], createdAt: r.created_at.toISOString() })),
    );
  }

  /** A coin of the caller's organization (any for staff); another's is a 404, as for no such coin. */
  private async visibleCoin(principal: Principal, serial: string) {
    const coin = (await this.ledger.read([serial])).get(serial);
    if (!coin || (!principal.permissions.has('TRANSACTION_AUDITOR') && coin.organization_id !== principal.organizationId)) {
      throw new ApiError('exception.coin.not_found', `No coin ${serial}`);
    }
    return coin;
  }

  /** The desk's usable cash coin of an issuer (409 when it has none). */
  async cashCoin(deskId: string, issuerId: string): Promise<string> {
    const serial = await this.coins.usableOf(deskId, issuerId);
    if (!serial) throw new ApiError('exception.cash_desk.no_cash_coin', 'The cash desk has no cash coin of this coin’s issuer');
    return serial;
  }
}

const cashCoinName = (desk: string) => `Cash ${desk}`.slice(0, 100);
const notFound = (id: string) => new ApiError('exception.cash_desk.not_found', `No cash desk ${id}`);
