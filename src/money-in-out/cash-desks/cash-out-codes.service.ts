import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { amountOf, OneTimeSecret } from '../../platform/common/json-decimal';
import { Money, parseAmount, scaleOf } from '../../platform/common/money';
import { APP_CONFIG, AppConfig } from '../../platform/config/config';
import { LedgerService } from '../../platform/ledger/ledger.service';
import { PaymentToolsService } from '../../platform/payment-tools/payment-tools.service';
import { CashOutCodesRepository } from './cash-out-codes.repository';
import type { CashOutCodeDto, CreateCashOutCodeDto } from './dto/cash-desk.dto';

/** Wrong presentations a coin's live codes bear before they are burnt: a guess succeeds with odds of at most 5 in 10^8. */
export const CASH_OUT_CODE_MAX_ATTEMPTS = 5;
const CODE_SPACE = 100_000_000;

/** The code's hash, salted with its id: the same digits of two codes never hash alike. */
const hashOf = (id: string, code: string) => createHash('sha256').update(`${id}:${code}`).digest();

/**
 * One-time cash-out codes (issue 29): a `cash_out` debits the customer, so a desk settles one only with the
 * customer's consent. Either the customer confirms the operation in the app, or at the desk they create a code
 * for their coin and the exact amount and read it out; the cashier presents it for the operation, and then the
 * desk may complete it. A code is 8 digits from a CSPRNG, kept only as a hash, valid CASH_OUT_CODE_TTL_SECONDS
 * (10 minutes by default) and used once. Every wrong presentation for a coin counts against each of its live
 * codes, and after CASH_OUT_CODE_MAX_ATTEMPTS they are burnt, so a cashier cannot try codes until one fits.
 */
@Injectable()
export class CashOutCodesService {
  constructor(
    private readonly codes: CashOutCodesRepository,
    private readonly ledger: LedgerService,
    private readonly tools: PaymentToolsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A code for one of the caller's usable client coins (another organization's is a 404) and an amount of its currency. */
  async create(principal: Principal, dto: CreateCashOutCodeDto): Promise<CashOutCodeDto> {
    const coin = this.tools.payer({ coins: await this.ledger.read([dto.coinSerial]), holds: [] }, dto.coinSerial, principal, 'coinSerial');
    if (!coin.usable) throw new ApiError('exception.coin.inactive', `Coin ${coin.serial} is closed or inactive`);
    const scale = scaleOf(coin.fraction);
    const amount = parseAmount(dto.amount, scale);
    const id = randomUUID();
    const code = String(randomInt(CODE_SPACE)).padStart(8, '0');
    const row = await this.codes.insert({
      id,
      coinSerial: coin.serial,
      amount: amount.toFixed(),
      codeHash: hashOf(id, code).toString('hex'),
      ttlSeconds: this.config.cashOutCodeTtlSeconds,
      createdBy: principal.userId,
    });
    return {
      id,
      code: new OneTimeSecret(code),
      coinSerial: coin.serial,
      amount: amountOf(amount, scale),
      currency: coin.code,
      expiresAt: row.expires_at.toISOString(),
      createdAt: row.created_at.toISOString(),
    };
  }

  /**
   * Inside the caller's transaction: uses the coin's live code of these digits and this exact amount and answers
   * its id; without one, counts a wrong presentation against the coin's live codes and answers null. The caller
   * commits either way (the count must stay), and refuses after the commit.
   */
  async redeem(coinSerial: string, amount: Money, code: string): Promise<string | null> {
    const match = (await this.codes.live(coinSerial)).find(
      (row) => new Money(row.amount).eq(amount) && timingSafeEqual(Buffer.from(row.code_hash, 'hex'), hashOf(row.id, code)),
    );
    if (!match) {
      await this.codes.countFailure(coinSerial, CASH_OUT_CODE_MAX_ATTEMPTS);
      return null;
    }
    await this.codes.use(match.id);
    return match.id;
  }
}
