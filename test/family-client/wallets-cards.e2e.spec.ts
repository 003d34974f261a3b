import { createHash, randomInt } from 'node:crypto';
import type { Actor } from '../helpers/actors';
import { percent } from '../helpers/commissions';
import { balanceOf, CoinBody, Dec, expectError, expectStatus } from '../helpers/money';
import { moneyWorld } from '../helpers/world';

/** A 16-digit number passing the Luhn check, of the service's own range (9…). */
function aCardNumber(): string {
  let payload = '9';
  for (let i = 0; i < 14; i++) payload += String(randomInt(10));
  let sum = 0;
  for (let i = 0; i < payload.length; i++) {
    let d = Number(payload[payload.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return payload + String((10 - (sum % 10)) % 10);
}

/** JSON with its keys sorted, as a request's body is fingerprinted. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The family web client's wallets and cards screens (its `wallets` and `user-dashboard` modules): each call with the
 * body its call site sends, and the answer fields the screen reads.
 */
describe('family client: wallets and smart cards', () => {
  const world = moneyWorld();

  /** The card form's body: { name, associatedCoinSerial, active: true }. */
  const createCard = (actor: Actor, coin: CoinBody, extra: Record<string, unknown> = {}) =>
    world.server.request('POST', '/api/v1/smart-cards/my', {
      token: actor.token,
      body: { name: 'Groceries', associatedCoinSerial: coin.serial, active: true, ...extra },
    });

  it('POST /smart-cards/my — the card form’s body issues a card for the account; reads smartCard', async () => {
    const alice = await world.user();
    const coin = await world.coin(alice, '10.00');
    const created = await createCard(alice, coin);
    expectStatus(created, 201);
    expect(created.body.smartCard).toMatchObject({
      id: expect.any(String),
      name: 'Groceries',
      active: true,
      associatedCoinSerial: coin.serial,
      currencyCode: world.currency.code,
      cardNumber: expect.stringMatching(/^\*{4} \*{4} \*{4} \d{4}$/),
      expirationDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      expirationStatus: 'ACTIVE',
      // The service's own card belongs to no card scheme (the details page would otherwise show 'Mastercard').
      paymentSystem: 'internal',
    });
    // No CVV exists, and none is ever answered.
    expect(created.body.smartCard).not.toHaveProperty('cvv');
    // active: false issues it blocked.
    const blocked = await createCard(alice, coin, { name: 'Spare', active: false });
    expect(blocked.body.smartCard).toMatchObject({ active: false, status: 'blocked' });
    // Another organization's coin is a 404, a malformed body a 400.
    const bob = await world.user();
    expectError(await createCard(bob, coin), 404, 'exception.coin.not_found');
    expectError(await createCard(alice, coin, { name: '' }), 400, 'exception.validation');
  });

  it('GET /smart-cards/my — the card select keeps the active ones and shows name and cardNumber', async () => {
    const alice = await world.user();
    const coin = await world.coin(alice, '10.00');
    const kept = (await createCard(alice, coin)).body.smartCard;
    await createCard(alice, coin, { name: 'Off', active: false });
    const list = await world.server.request('GET', '/api/v1/smart-cards/my', { token: alice.token });
    expectStatus(list, 200);
    const active = list.body.records.filter((card: any) => card.active);
    expect(active).toEqual([
      expect.objectContaining({ id: kept.id, name: 'Groceries', cardNumber: kept.cardNumber, paymentSystem: 'internal' }),
    ]);
    expect(list.body.records).toHaveLength(2);
  });

  it('GET /smart-cards/my/{id} — the card page reads records[0]: name, cardNumber, expirationDate', async () => {
    const alice = await world.user();
    const coin = await world.coin(alice, '10.00');
    const card = (await createCard(alice, coin)).body.smartCard;
    const read = await world.server.request('GET', `/api/v1/smart-cards/my/${card.id}`, { token: alice.token });
    expectStatus(read, 200);
    const [first] = read.body.records;
    expect(first).toMatchObject({ id: card.id, name: 'Groceries', cardNumber: card.cardNumber, expirationDate: card.expirationDate });
    // The card details show paymentSystem (and cvv, which no card of the service has: never answered).
    expect(first.paymentSystem).toBe('internal');
    expect(first).not.toHaveProperty('cvv');
    const bob = await world.user();
    expectError(await world.server.request('GET', `/api/v1/smart-cards/my/${card.id}`, { token: bob.token }), 404);
  });

  it('PATCH /smart-cards/my/number/{cardNumber} — the settings form renames and blocks the card it names by its cardNumber', async () => {
    const alice = await world.user();
    const coin = await world.coin(alice, '10.00');
    const card = (await createCard(alice, coin)).body.smartCard;
    // The client names the card by the cardNumber it read (masked), and sends { name, active }.
    const path = `/api/v1/smart-cards/my/number/${encodeURIComponent(card.cardNumber)}`;
    const changed = await world.server.request('PATCH', path, { token: alice.token, body: { name: 'Travel', active: false } });
    expectStatus(changed, 200);
    expect(changed.body.smartCard).toMatchObject({
      id: card.id,
      name: 'Travel',
      active: false,
      status: 'blocked',
      paymentSystem: 'internal',
    });
    // By id too; active: true unblocks.
    const back = await world.server.request('PATCH', `/api/v1/smart-cards/my/number/${card.id}`, {
      token: alice.token,
      body: { name: 'Travel', active: true },
    });
    expect(back.body.smartCard).toMatchObject({ active: true, status: 'active' });
    // Another's card is a 404; nothing to change a 400; a full number in the path (it would be logged) a 400.
    const bob = await world.user();
    expectError(
      await world.server.request('PATCH', path, { token: bob.token, body: { name: 'Mine' } }),
      404,
      'exception.smart_card.not_found',
    );
    expectError(await world.server.request('PATCH', path, { token: alice.token, body: {} }), 400);
    expectError(
      await world.server.request('PATCH', `/api/v1/smart-cards/my/number/${aCardNumber()}`, { token: alice.token, body: { name: 'X' } }),
      400,
    );
    // Two cards ending alike: the masked number names neither (409). The twin swaps two digits the Luhn sum does not
    // double (the 10th and 12th), so it passes the check too and keeps the last four.
    let number = aCardNumber();
    while (number[9] === number[11]) number = aCardNumber();
    const twin = number.slice(0, 9) + number[11] + number[10] + number[9] + number.slice(12);
    expectStatus(await createCard(alice, coin, { cardNumber: number }), 201);
    expectStatus(await createCard(alice, coin, { cardNumber: twin }), 201);
    const ambiguous = await world.server.request(
      'PATCH',
      `/api/v1/smart-cards/my/number/${encodeURIComponent(`**** **** **** ${number.slice(12)}`)}`,
      {
        token: alice.token,
        body: { name: 'Which' },
      },
    );
    expectError(ambiguous, 409, 'exception.conflict.duplicate');
  });

  it('GET /coins — the wallets screen reads coins[].smartCards (id, name, active, cardNumber)', async () => {
    const alice = await world.user();
    const coin = await world.coin(alice, '10.00');
    const other = await world.coin(alice, '0');
    const card = (await createCard(alice, coin)).body.smartCard;
    const coins = await world.server.request('GET', '/api/v1/coins', { token: alice.token });
    expectStatus(coins, 200);
    const bySerial = new Map(coins.body.coins.map((c: any) => [c.serial, c]));
    expect((bySerial.get(coin.serial) as any).smartCards).toEqual([
      {
        id: card.id,
        name: 'Groceries',
        active: true,
        cardNumber: card.cardNumber,
        expirationDate: card.expirationDate,
        expirationStatus: 'ACTIVE',
      },
    ]);
    expect((bySerial.get(other.serial) as any).smartCards).toEqual([]);
    // Declared by the client's wallet type: nothing held, so the future balance is the balance; no credit.
    expect(bySerial.get(coin.serial)).toMatchObject({ amount: '10.00', futureAmount: '10.00', creditLimit: '0.00' });
  });

  it('GET /contact-book/contact — the transfer form lists every contact; reads contacts[] (id, firstName, nickname, lastName, email, phoneNumber)', async () => {
    const alice = await world.user();
    for (const [name, contact] of [
      ['Zoe Lind', { phoneNumber: '+37060000009' }],
      ['Bob', { email: 'bob@example.com' }],
    ] as const) {
      expectStatus(
        await world.server.request('POST', '/api/v1/contact-book/contact', { token: alice.token, body: { name, ...contact } }),
        201,
      );
    }
    const all = await world.server.request('GET', '/api/v1/contact-book/contact', { token: alice.token });
    expectStatus(all, 200);
    expect(all.body.contacts).toEqual([
      expect.objectContaining({ id: expect.any(String), nickname: 'Bob', name: 'Bob', email: 'bob@example.com', phoneNumber: null }),
      expect.objectContaining({ nickname: 'Zoe Lind', phoneNumber: '+37060000009', email: null }),
    ]);
    expect(all.body.truncated).toBe(false);
    // The payee select labels each contact `${firstName || nickname} ${lastName || ''}` (transfer-to-wallet-form.vue:42):
    // the name as saved, kept whole in firstName; the book is the caller's (ownerId).
    for (const c of all.body.contacts) expect(c).toMatchObject({ firstName: c.name, lastName: null, ownerId: alice.id });
    expect(all.body.contacts.map((c: any) => `${c.firstName || c.nickname} ${c.lastName || ''}`.trim())).toEqual(['Bob', 'Zoe Lind']);
    // Only the caller's own book.
    const bob = await world.user();
    expect((await world.server.request('GET', '/api/v1/contact-book/contact', { token: bob.token })).body.contacts).toEqual([]);
  });

  const anAccount = async (actor: Actor) => {
    const body = {
      iban: 'DE89 3704 0044 0532 0130 00',
      bic: 'COBADEFFXXX',
      accountHolder: 'Alice Liddell',
      bankName: 'Commerzbank',
      name: 'Main',
    };
    const created = await world.server.request('POST', '/api/v1/bank-accounts', { token: actor.token, body });
    expectStatus(created, 201);
    return created.body.bankAccount;
  };
  const familyDetails = {
    bankAccountNumber: 'DE89370400440532013000',
    iban: 'DE89370400440532013000',
    fullName: 'Alice Liddell',
    bic: 'COBADEFFXXX',
    swift: 'COBADEFFXXX',
    name: 'Commerzbank',
    address: null,
  };

  it('GET /profiles/my/bank-accounts — the withdrawal form fills itself from records[].details', async () => {
    const alice = await world.user();
    const account = await anAccount(alice);
    const list = await world.server.request('GET', '/api/v1/profiles/my/bank-accounts', { token: alice.token });
    expectStatus(list, 200);
    // The details carry the account's id, its number (the IBAN) and its catalog bank (none chosen here) too.
    const details = { ...familyDetails, id: account.id, number: familyDetails.iban, bankId: null };
    expect(list.body.records).toEqual([expect.objectContaining({ id: account.id, status: 'APPROVED', details })]);
    const bob = await world.user();
    expect((await world.server.request('GET', '/api/v1/profiles/my/bank-accounts', { token: bob.token })).body.records).toEqual([]);
  });

  it('POST /my/bank-accounts/view — the account details page’s body { filter: { coinSerial } }; reads records[0].details', async () => {
    const alice = await world.user();
    const coin = await world.coin(alice, '0');
    const account = await anAccount(alice);
    const view = await world.server.request('POST', '/api/v1/my/bank-accounts/view', {
      token: alice.token,
      body: { filter: { coinSerial: coin.serial } },
    });
    expectStatus(view, 200);
    expect(view.body.records[0]).toMatchObject({ id: account.id, details: familyDetails });
    expect(view.body.totalRecords).toBe(1);
    // Another's coin is a 404; an unknown filter field a 400.
    const bob = await world.user();
    const others = await world.server.request('POST', '/api/v1/my/bank-accounts/view', {
      token: bob.token,
      body: { filter: { coinSerial: coin.serial } },
    });
    expectError(others, 404, 'exception.coin.not_found');
    expectError(
      await world.server.request('POST', '/api/v1/my/bank-accounts/view', { token: alice.token, body: { filter: { colour: 'red' } } }),
      400,
      'exception.validation',
    );
  });

  describe('cash-desk withdrawals', () => {
    let desk: { id: string; coins: { serial: string }[] };
    beforeAll(async () => {
      const created = await world.server.request('POST', '/api/v1/cash-desks', {
        token: world.admin,
        body: { name: 'Harbour desk', issuerIds: [world.issuer.id] },
      });
      expectStatus(created, 201);
      desk = created.body.cashDesk;
    });
    /** The withdrawal form's body: { coin, amount, receiverName }. */
    const formBody = (coin: CoinBody, amount: number | string = 40) => ({ coin: coin.serial, amount, receiverName: 'Alice Liddell' });

    it('POST /cash-desk-withdrawals/{id}/calculate — the form’s body; reads commissionAmountPush, recipientAmountPush, issuer.currency', async () => {
      const { user: alice, coin } = await world.customer('100.00', { flow: 'cash_out', fee: percent('2') });
      const calculated = await world.server.request('POST', `/api/v1/cash-desk-withdrawals/${desk.id}/calculate`, {
        token: alice.token,
        body: formBody(coin),
      });
      expectStatus(calculated, 200);
      expect(calculated.body).toMatchObject({
        commissionAmountPush: '0.80',
        recipientAmountPush: '40.00',
        senderAmountPush: '40.80',
        issuer: { id: world.issuer.id, sn: world.issuer.sn, currency: world.currency.code },
        amountToSend: '40.00',
        commissionAmount: '0.80',
      });
      expect(await balanceOf(world.server, alice.token, coin.serial)).toBe('100.00');
      // An unknown desk is a 404, another's coin a 404, a desk without a cash coin of the issuer a 409.
      const unknownDesk = '00000000-0000-4000-8000-00000000d35c';
      expectError(
        await world.server.request('POST', `/api/v1/cash-desk-withdrawals/${unknownDesk}/calculate`, {
          token: alice.token,
          body: formBody(coin),
        }),
        404,
        'exception.cash_desk.not_found',
      );
      const bob = await world.user();
      expectError(
        await world.server.request('POST', `/api/v1/cash-desk-withdrawals/${desk.id}/calculate`, {
          token: bob.token,
          body: formBody(coin),
        }),
        404,
        'exception.coin.not_found',
      );
      const bare = (await world.server.request('POST', '/api/v1/cash-desks', { token: world.admin, body: { name: 'Bare desk' } })).body
        .cashDesk;
      expectError(
        await world.server.request('POST', `/api/v1/cash-desk-withdrawals/${bare.id}/calculate`, {
          token: alice.token,
          body: formBody(coin),
        }),
        409,
        'exception.cash_desk.no_cash_coin',
      );
    });

    it('POST /cash-desk-withdrawals/{id} — the form’s body pays the desk once; reads process.cashAmount, clientCoin, requestIdentifier', async () => {
      const alice = await world.user();
      const coin = await world.coin(alice, '100.00');
      const headers = { 'Idempotency-Key': `desk-withdrawal-${coin.serial}` };
      const path = `/api/v1/cash-desk-withdrawals/${desk.id}`;
      const done = await world.server.request('POST', path, { token: alice.token, headers, body: formBody(coin) });
      expectStatus(done, 201);
      expect(done.body.process).toMatchObject({
        type: 'cash_desk_redeem',
        status: 'processed',
        cashAmount: '40.00',
        cashDeskId: desk.id,
        receiverName: 'Alice Liddell',
        requestIdentifier: headers['Idempotency-Key'],
        clientCoin: { serial: coin.serial, issuer: { currency: world.currency.code } },
      });
      // Its operation as the history lists it (issue 45): the customer's coin paid 40.00 of cash.
      expect(done.body.process.transaction).toEqual([
        expect.objectContaining({
          id: done.body.process.id,
          type: 'cash_desk_redeem',
          amount: '40.00',
          cashAmount: '40.00',
          netAmount: '40.00',
          coin: expect.objectContaining({ serial: coin.serial }),
          clientCoin: expect.objectContaining({ serial: coin.serial }),
          outgoingAmount: '40.00',
          incomingAmount: null,
          to: expect.objectContaining({ serial: desk.coins[0].serial }),
          children: [],
        }),
      ]);
      const again = await world.server.request('POST', path, { token: alice.token, headers, body: formBody(coin) });
      expect(again.body.process.id).toBe(done.body.process.id);
      // The same key with another body is a 422; an unknown desk a 404; neither moves money.
      expectError(await world.server.request('POST', path, { token: alice.token, headers, body: formBody(coin, 41) }), 422);
      const unknownDesk = await world.server.request('POST', '/api/v1/cash-desk-withdrawals/00000000-0000-4000-8000-00000000d35c', {
        token: alice.token,
        headers: { 'Idempotency-Key': `desk-withdrawal-nowhere-${coin.serial}` },
        body: formBody(coin),
      });
      expectError(unknownDesk, 404, 'exception.cash_desk.not_found');
      expect(await balanceOf(world.server, alice.token, coin.serial)).toBe('60.00');
      const deskCoin = await world.server.db.query(`SELECT balance::text AS balance FROM coins WHERE serial = $1`, [desk.coins[0].serial]);
      expect(new Dec(deskCoin.rows[0].balance).toFixed(2)).toBe('40.00');
      // More than the coin holds is a 409 and moves nothing; amount 0 and a blank receiver are 400s.
      const tooMuch = await world.server.request('POST', path, {
        token: alice.token,
        headers: { 'Idempotency-Key': `desk-withdrawal-big-${coin.serial}` },
        body: formBody(coin, '60.01'),
      });
      expectError(tooMuch, 409);
      for (const body of [formBody(coin, 0), { ...formBody(coin), receiverName: ' ' }]) {
        expectError(
          await world.server.request('POST', path, {
            token: alice.token,
            headers: { 'Idempotency-Key': `bad-${body.amount}-${coin.serial}` },
            body,
          }),
          400,
          'exception.validation',
        );
      }
      expect(await balanceOf(world.server, alice.token, coin.serial)).toBe('60.00');
      // A cashier is no customer of a desk.
      const cashier = await world.user({ role: 'cashier', organizationId: desk.id });
      const refused = await world.server.request('POST', path, {
        token: cashier.token,
        headers: { 'Idempotency-Key': `cashier-${coin.serial}` },
        body: formBody(coin),
      });
      expect(refused.status).toBe(403);
    });
  });

  describe('POST /transfers — pay to a 16-digit card number', () => {
    it('the payment form’s body (SMART_CARD, srcValue a card id, destValue the payee’s card number) pays the card’s coin', async () => {
      const alice = await world.user();
      const bob = await world.user();
      const from = await world.coin(alice, '100.00');
      const to = await world.coin(bob, '0');
      const payerCard = (await createCard(alice, from)).body.smartCard;
      const number = aCardNumber();
      const payeeCard = await createCard(bob, to, { cardNumber: number });
      expectStatus(payeeCard, 201);
      const body = { paymentTool: { type: 'SMART_CARD', srcValue: payerCard.id, destValue: number }, amount: 25, description: '' };
      const calculated = await world.server.request('POST', '/api/v1/transfers/calculate', { token: alice.token, body });
      expectStatus(calculated, 200);
      expect(calculated.body.paymentToolDetails.destValue).toBe(`**** **** **** ${number.slice(-4)}`);
      const headers = { 'Idempotency-Key': `card-number-${payerCard.id}` };
      const paid = await world.server.request('POST', '/api/v1/transfers', { token: alice.token, headers, body });
      expectStatus(paid, 201);
      expect(paid.body.process).toMatchObject({ type: 'card_payment', status: 'processed' });
      const again = await world.server.request('POST', '/api/v1/transfers', { token: alice.token, headers, body });
      expect(again.body.process.id).toBe(paid.body.process.id);
      expect(await balanceOf(world.server, bob.token, to.serial)).toBe('25.00');
      expect(await balanceOf(world.server, alice.token, from.serial)).toBe('75.00');

      // An unknown number is a 404 whose message shows only the last four digits; a blocked card a 409.
      const unknown = aCardNumber();
      const missing = await world.server.request('POST', '/api/v1/transfers', {
        token: alice.token,
        headers: { 'Idempotency-Key': `card-number-unknown-${payerCard.id}` },
        body: { ...body, paymentTool: { ...body.paymentTool, destValue: unknown } },
      });
      expectError(missing, 404, 'exception.payment_tool.not_found');
      expect(JSON.stringify(missing.body)).not.toContain(unknown);
      await world.server.request('PATCH', `/api/v1/smart-cards/my/number/${payeeCard.body.smartCard.id}`, {
        token: bob.token,
        body: { active: false },
      });
      const refused = await world.server.request('POST', '/api/v1/transfers', {
        token: alice.token,
        headers: { 'Idempotency-Key': `card-number-blocked-${payerCard.id}` },
        body,
      });
      expectError(refused, 409, 'exception.smart_card.blocked');
      expect(JSON.stringify(refused.body)).not.toContain(number);

      // A second card with the same number is a 409, and does not repeat it either.
      const taken = await createCard(alice, from, { cardNumber: number });
      expectError(taken, 409, 'exception.conflict.duplicate');
      expect(JSON.stringify(taken.body)).not.toContain(number);
      // A number failing the Luhn check is a 400.
      const wrong = number.slice(0, 15) + String((Number(number[15]) + 1) % 10);
      expectError(await createCard(alice, from, { cardNumber: wrong }), 400, 'exception.validation', 'cardNumber');

      // Nor as a plain hash someone could search every number for: the Idempotency-Key's fingerprint of the body is
      // keyed, never the SHA-256 of the request as sent.
      const plain = createHash('sha256')
        .update(`POST /api/v1/transfers\n/api/v1/transfers\n${canonical(body)}`)
        .digest('hex');
      const { rows: fingerprints } = await world.server.db.query(`SELECT request_hash FROM idempotency_keys WHERE key = $1`, [
        headers['Idempotency-Key'],
      ]);
      expect(fingerprints).toHaveLength(1);
      expect(fingerprints[0].request_hash).not.toBe(plain);

      // The number is in no answer, no log line and no database row in clear (every text column of every table).
      for (const answer of [payeeCard, calculated, paid, again]) expect(JSON.stringify(answer.body)).not.toContain(number);
      expect(world.server.logs.filter((line) => line.includes(number))).toEqual([]);
      const { rows: tables } = await world.server.db.query<{ table_schema: string; table_name: string }>(
        `SELECT table_schema, table_name FROM information_schema.tables
          WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'`,
      );
      for (const { table_schema, table_name } of tables) {
        const { rows } = await world.server.db.query(
          `SELECT count(*)::int AS n FROM "${table_schema}"."${table_name}" t WHERE t::text LIKE $1`,
          [`%${number}%`],
        );
        expect({ table: table_name, rows: rows[0].n }).toEqual({ table: table_name, rows: 0 });
      }
    });
  });
});
