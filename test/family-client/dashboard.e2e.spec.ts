import { Actor } from '../helpers/actors';
import { aRate, fundReserve } from '../helpers/exchange';
import { aCoin, aCurrency, anIssuer, CoinBody, expectError, expectStatus, transfer, uniqueCode } from '../helpers/money';
import { moneyWorld } from '../helpers/world';

/** Today's UTC date and the first and last day of its month, as the client's date pickers send them (`YYYY-MM-DD`). */
function thisMonth(): { today: string; first: string; last: string } {
  const now = new Date();
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return {
    today: day(now),
    first: day(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))),
    last: day(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0))),
  };
}

/**
 * The family web client's dashboard, reports and history as an individual and a merchant see them (its `user-dashboard`
 * and `wallets` modules and its store): each call with the body its call site sends, checking the fields its screens read.
 */
describe('family client: dashboard, reports and history', () => {
  const world = moneyWorld();
  const alice = world.suiteUser();
  const bob = world.suiteUser({ role: 'merchant' });
  const a1 = world.suiteCoin(alice, '100.00');
  const a2 = world.suiteCoin(alice, '20.50');
  const b1 = world.suiteCoin(bob, '10.00');
  let groceries: string;
  let rent: string;

  const get = (token: string, path: string, query: Record<string, string> = {}) =>
    world.server.request('GET', `/api/v1${path}${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ''}`, { token });
  const tag = async (category: string, operationId: string) =>
    expectStatus(
      await world.server.request('POST', `/api/v1/transaction-categories/${category}/operations/${operationId}`, { token: alice.token }),
      200,
    );

  beforeAll(async () => {
    const category = async (name: string) =>
      (await world.server.request('POST', '/api/v1/transaction-categories', { token: alice.token, body: { name } })).body.category.id;
    groceries = await category('Groceries');
    rent = await category('Rent & bills');
    // Alice pays Bob three times from a1 (two tagged Groceries, one Rent) and once from a2 (untagged); Bob pays her back 1.00.
    for (const [from, amount, category] of [
      [a1, '10.00', groceries],
      [a1, '5.00', groceries],
      [a1, '25.00', rent],
      [a2, '10.00', undefined],
    ] as const) {
      const paid = await transfer(world.server, alice.token, from.serial, b1.serial, amount);
      expectStatus(paid, 201);
      if (category) await tag(category, paid.body.process.id);
    }
    expectStatus(await transfer(world.server, bob.token, b1.serial, a1.serial, '1.00'), 201);
  });

  it('GET /reporting/coins?currency={} — the coins store reads coinsDetail[].coinEntry.currency and roundedAmount', async () => {
    const answer = await get(alice.token, '/reporting/coins', { currency: world.currency.code });
    expectStatus(answer, 200);
    expect(answer.body).toMatchObject({ totalAmount: '71.50', roundedTotalAmount: '71.50', currency: world.currency.code });
    expect(answer.body.coinsDetail).toEqual([
      expect.objectContaining({
        amount: '61.00',
        percentFromTotal: '85.31',
        roundedAmount: '61.00',
        currency: world.currency.code,
        coinEntry: { currency: world.currency.code, amount: '61.00', issuerId: world.issuer.id, symbol: null },
      }),
      expect.objectContaining({
        amount: '10.50',
        roundedAmount: '10.50',
        coinEntry: expect.objectContaining({ currency: world.currency.code, issuerId: world.issuer.id }),
      }),
    ]);
  });

  describe('GET /reporting/coins?currency={} — the total balance in the header and the summary tab’s balance structure', () => {
    let dollar: { code: string; symbol: string };
    let euro: { code: string; symbol: string };
    let dollarIssuer: string;
    let dave: Actor;
    let d1: CoinBody;
    let d2: CoinBody;

    /** A currency of cents with a symbol, as the header shows it (`$278.00` was the bug). */
    const currencyWith = async (symbol: string) => {
      const code = uniqueCode();
      const created = await world.server.request('POST', '/api/v1/currencies', {
        token: world.admin,
        body: { code, name: `Currency ${code}`, symbol, fraction: 100 },
      });
      expectStatus(created, 201);
      return { code, symbol };
    };

    beforeAll(async () => {
      dollar = await currencyWith('$');
      euro = await currencyWith('€');
      dollarIssuer = (await anIssuer(world.server, world.admin, dollar.code, 'Dollar bank')).id;
      await anIssuer(world.server, world.admin, euro.code, 'Euro bank');
      // 237.66 × 0.9139 = 217.197474 and 40.00 × 0.9139 = 36.556: euros with more decimals than a cent.
      await aRate(world.server, world.admin, dollar.code, euro.code, '0.9139');
      dave = await world.user();
      d1 = await world.coin(dave, '237.66', dollarIssuer);
      d2 = await world.coin(dave, '40.00', dollarIssuer);
    });

    // The store's fetchCoinDetails: the client's request has only the currency of the wallet picked in the header.
    const coinDetails = (currency: string) => get(dave.token, `/reporting/coins`, { currency });

    it('the header shows roundedTotalAmount as money: 277.66 for 237.66 and 40.00, not 278; the chart reads each coin', async () => {
      const answer = await coinDetails(dollar.code);
      expectStatus(answer, 200);
      expect(answer.body).toEqual({
        status: 'ok',
        message: 'OK',
        totalAmount: '277.66',
        roundedTotalAmount: '277.66',
        currency: dollar.code,
        symbol: '$',
        unconvertedCurrencies: [],
        coinsDetail: [
          {
            serial: d1.serial,
            name: 'Wallet',
            amount: '237.66',
            percentFromTotal: '85.59',
            roundedAmount: '237.66',
            currency: dollar.code,
            symbol: '$',
            coinEntry: { currency: dollar.code, amount: '237.66', issuerId: dollarIssuer, symbol: '$' },
          },
          {
            serial: d2.serial,
            name: 'Wallet',
            amount: '40.00',
            percentFromTotal: '14.41',
            roundedAmount: '40.00',
            currency: dollar.code,
            symbol: '$',
            coinEntry: { currency: dollar.code, amount: '40.00', issuerId: dollarIssuer, symbol: '$' },
          },
        ],
      });
      // Exact JSON numbers on the wire, the cents kept.
      expect(answer.text).toContain('"totalAmount":277.66,"roundedTotalAmount":277.66,');
      expect(answer.text).toContain('"amount":40.00,"percentFromTotal":14.41,"roundedAmount":40.00,');
    });

    it('in another currency each coin is converted at the rate in force: the exact total kept, the rounded one to the cent', async () => {
      const answer = await coinDetails(euro.code);
      expectStatus(answer, 200);
      expect(answer.body).toMatchObject({
        // 217.197474 + 36.556, every decimal kept.
        totalAmount: '253.753474',
        // The exact total rounded to the cent: not 254 (whole units), nor 253.76 (the sum of the rounded coins).
        roundedTotalAmount: '253.75',
        currency: euro.code,
        symbol: '€',
        unconvertedCurrencies: [],
      });
      expect(answer.body.coinsDetail).toEqual([
        {
          serial: d1.serial,
          name: 'Wallet',
          amount: '217.197474',
          percentFromTotal: '85.59',
          roundedAmount: '217.20',
          currency: euro.code,
          symbol: '€',
          // The chart's label and the coin's own balance: dollars.
          coinEntry: { currency: dollar.code, amount: '237.66', issuerId: dollarIssuer, symbol: '$' },
        },
        {
          serial: d2.serial,
          name: 'Wallet',
          amount: '36.556',
          percentFromTotal: '14.41',
          roundedAmount: '36.56',
          currency: euro.code,
          symbol: '€',
          coinEntry: { currency: dollar.code, amount: '40.00', issuerId: dollarIssuer, symbol: '$' },
        },
      ]);
      expect(answer.text).toContain('"totalAmount":253.753474,"roundedTotalAmount":253.75,');
      expect(answer.text).toContain('"amount":217.197474,"percentFromTotal":85.59,"roundedAmount":217.20,');
    });
  });

  it('GET /reporting/coins/outflows — the spending summary’s body (currency, this month as from/to); reads records per category', async () => {
    const { first, last } = thisMonth();
    const answer = await get(alice.token, '/reporting/coins/outflows', { currency: world.currency.code, from: first, to: last });
    expectStatus(answer, 200);
    const row = (categoryId: string | null, sum: string, percentage: string, numberOfOperations: number) => ({
      categoryId,
      sum,
      percentage,
      numberOfOperations,
      currencyCode: world.currency.code,
      currencySymbol: null,
    });
    // 50.00 left Alice's organization: rent 25 (50 %), groceries 15 (30 %), 10 untagged (20 %), the largest first.
    expect(answer.body.records).toEqual([
      row(rent, '25.00', '50.00', 1),
      row(groceries, '15.00', '30.00', 2),
      row(null, '10.00', '20.00', 1),
    ]);
    expect(answer.body.outflowSum).toBe('50.00');
    // The categories are Alice's own: Bob sees his outflow uncategorized.
    const bobs = await get(bob.token, '/reporting/coins/outflows', { currency: world.currency.code, from: first, to: last });
    expect(bobs.body.records).toEqual([
      expect.objectContaining({ categoryId: null, sum: '1.00', percentage: '100.00', numberOfOperations: 1 }),
    ]);
  });

  it('GET /reporting/coins/outflows/{serial} — the wallet’s spending summary (from/to only); reads records per category of that coin', async () => {
    const { first, last } = thisMonth();
    const answer = await get(alice.token, `/reporting/coins/outflows/${a2.serial}`, { from: first, to: last });
    expectStatus(answer, 200);
    expect(answer.body.records).toEqual([
      {
        categoryId: null,
        sum: '10.00',
        percentage: '100.00',
        numberOfOperations: 1,
        currencyCode: world.currency.code,
        currencySymbol: null,
      },
    ]);
    const first1 = await get(alice.token, `/reporting/coins/outflows/${a1.serial}`, { from: first, to: last });
    expect(first1.body.records.map((r: { categoryId: string }) => r.categoryId)).toEqual([rent, groceries]);
    // Not one of Alice's coins.
    expect((await get(alice.token, `/reporting/coins/outflows/${b1.serial}`, { from: first, to: last })).status).toBe(404);
  });

  it('GET /reporting/coins/funds-flows — the summary cards’ body; an inclusive `to` (today) counts today, the answer keeps its shape', async () => {
    const { today } = thisMonth();
    const answer = await get(alice.token, '/reporting/coins/funds-flows', { currency: world.currency.code, from: today, to: today });
    expectStatus(answer, 200);
    expect(answer.body).toMatchObject({
      currencyCode: world.currency.code,
      currencySymbol: null,
      inflowSum: '121.50',
      outflowSum: '50.00',
      from: `${today}T00:00:00.000Z`,
    });
    expect(Date.parse(answer.body.to) - Date.parse(answer.body.from)).toBe(24 * 60 * 60 * 1000);
  });

  it('GET /reporting/coins/funds-flows/{serial} — the wallet’s summary cards with today as `to`', async () => {
    const { today } = thisMonth();
    const answer = await get(alice.token, `/reporting/coins/funds-flows/${a1.serial}`, { from: today, to: today });
    expectStatus(answer, 200);
    expect(answer.body).toMatchObject({ currencyCode: world.currency.code, inflowSum: '101.00', outflowSum: '40.00' });
  });

  it('POST /transaction-categories/view — the catalog store’s body ({ all: true }); reads id, name, code and imageLink', async () => {
    // A category with a picture (the client only reads categories; this one is made here).
    const travel = await world.server.request('POST', '/api/v1/transaction-categories', {
      token: alice.token,
      body: { name: 'Travel', imageLink: 'https://cdn.example.com/categories/travel.png' },
    });
    expectStatus(travel, 201);
    const answer = await world.server.request('POST', '/api/v1/transaction-categories/view', { token: alice.token, body: { all: true } });
    expectStatus(answer, 200);
    expect(answer.body.records).toEqual([
      expect.objectContaining({ id: groceries, name: 'Groceries', code: 'groceries', imageLink: null }),
      expect.objectContaining({ id: rent, name: 'Rent & bills', code: 'rent_bills', imageLink: null }),
      expect.objectContaining({
        id: travel.body.category.id,
        name: 'Travel',
        code: 'travel',
        imageLink: 'https://cdn.example.com/categories/travel.png',
      }),
    ]);
  });

  it('GET /operation-flows — the catalog store (no body); reads id, code, transactionType and processType', async () => {
    const answer = await get(alice.token, '/operation-flows');
    expectStatus(answer, 200);
    const byId = Object.fromEntries(answer.body.records.map((r: { id: string }) => [r.id, r]));
    expect(byId.client_transaction_transfer).toMatchObject({
      code: 'client_transaction_transfer',
      processType: 'client_transaction_transfer',
      transactionType: 'transfer',
    });
    // The family's names where the service's differ, the same table as the history's types.
    expect(byId.exchange).toMatchObject({ code: 'exchange_transaction', processType: 'exchange_transaction', transactionType: 'transfer' });
    expect(byId.bank_withdrawal).toMatchObject({ processType: 'bank_redeem', transactionType: 'redeem' });
    expect(byId.bank_topup).toMatchObject({ processType: 'bank_topup', transactionType: 'issue' });
    expect(byId.gate_payment).toMatchObject({ processType: 'gate_purchase' });
    expect(byId.invoice_payment).toMatchObject({ processType: 'merchant_invoice' });
    // The coin types each flow moves money between: client coins, or an issuer's settlement and reserve (system) coins.
    expect(byId.client_transaction_transfer).toMatchObject({ srcCoinType: 'client', destCoinType: 'client' });
    expect(byId.bank_topup).toMatchObject({ srcCoinType: 'system', destCoinType: 'client' });
    expect(byId.bank_withdrawal).toMatchObject({ srcCoinType: 'client', destCoinType: 'system' });
    for (const flow of answer.body.records)
      expect(['client', 'system']).toEqual(expect.arrayContaining([flow.srcCoinType, flow.destCoinType]));
  });

  describe('POST /transactions/view', () => {
    let carol: Actor;
    let c1: CoinBody;
    let usd: CoinBody;
    let paid: string;
    let exchanged: string;
    const view = (token: string, body: object) => world.server.request('POST', '/api/v1/transactions/view', { token, body });

    beforeAll(async () => {
      const dollar = (await aCurrency(world.server, world.admin, { fraction: 100 })).code;
      const dollarIssuer = (await anIssuer(world.server, world.admin, dollar, 'Dollar bank')).id;
      await aRate(world.server, world.admin, world.currency.code, dollar, '1.085');
      await fundReserve(world.server, world.admin, dollarIssuer, '10000.00');
      carol = await world.user();
      c1 = await world.coin(carol, '200.00');
      usd = await aCoin(world.server, carol.token, dollarIssuer, 'Dollars');
      const payment = await transfer(world.server, carol.token, c1.serial, b1.serial, '12.00', { key: 'carol-pays-bob-1' });
      expectStatus(payment, 201);
      paid = payment.body.process.id;
      const category = await world.server.request('POST', '/api/v1/transaction-categories', {
        token: carol.token,
        body: { name: 'Travel' },
      });
      expectStatus(
        await world.server.request('POST', `/api/v1/transaction-categories/${category.body.category.id}/operations/${paid}`, {
          token: carol.token,
        }),
        200,
      );
      const fx = await world.server.request('POST', '/api/v1/exchange', {
        token: carol.token,
        body: { inCoinSerial: c1.serial, outCoinSerial: usd.serial, amount: '100.00', exchangeType: 'sell' },
      });
      expectStatus(fx, 201);
      exchanged = fx.body.process.id;
    });

    it('the wallets’ recent operations body (statuses processed, 6 newest); reads type, amounts, operationAmountDetails and clientCoin', async () => {
      const answer = await view(carol.token, {
        pageSize: 6,
        pageNumber: 0,
        filter: { statuses: ['processed'] },
        sort: { createdAt: 'desc' },
      });
      expectStatus(answer, 200);
      expect(answer.body.records.map((r: { type: string }) => r.type)).toEqual([
        'exchange_transaction',
        'client_transaction_transfer',
        'bank_topup',
      ]);
      const [fx, payment, topUp] = answer.body.records;
      expect(payment).toMatchObject({
        id: paid,
        type: 'client_transaction_transfer',
        amount: '12.00',
        from: { serial: c1.serial, issuer: { currency: world.currency.code } },
        operationAmountDetails: {
          senderGrossAmount: '12.00',
          senderNetAmount: '12.00',
          senderFee: '0.00',
          recipientGrossAmount: '12.00',
          recipientNetAmount: '12.00',
          recipientFee: '0.00',
        },
        clientCoin: { serial: c1.serial, name: 'Wallet', issuer: { currency: world.currency.code } },
        categoryName: 'Travel',
        categoryImageLink: null,
        children: [],
        invoiceAmount: null,
        // The record's coin and what moved on it (issue 45): Carol's coin paid 12.00, no cash, no invoice.
        coin: { serial: c1.serial, issuer: { currency: world.currency.code } },
        outgoingAmount: '12.00',
        incomingAmount: null,
        netAmount: '12.00',
        cashAmount: null,
        invoiceIdentifier: null,
        merchantCoinSerial: null,
        posCompanyName: null,
      });
      // A top-up: the customer's coin is the one credited (the bank's side is the issuer's settlement coin).
      expect(topUp.clientCoin).toMatchObject({ serial: c1.serial, issuer: { currency: world.currency.code } });
      // Money in from a bank: its amount is the cash, and it entered Carol's coin.
      expect(topUp).toMatchObject({ cashAmount: '200.00', incomingAmount: '200.00', outgoingAmount: null, coin: { serial: c1.serial } });
      expect(fx.id).toBe(exchanged);
    });

    it('the dashboard history’s body (a wallet’s coinSerials, newest first); an exchange reads its children', async () => {
      const answer = await view(carol.token, {
        pageNumber: 0,
        pageSize: 20,
        filter: { coinSerials: [usd.serial] },
        sort: { createdAt: 'desc' },
      });
      expectStatus(answer, 200);
      expect(answer.body.records).toHaveLength(1);
      const [fx] = answer.body.records;
      expect(fx).toMatchObject({ id: exchanged, type: 'exchange_transaction', categoryName: null });
      expect(fx.children).toEqual([
        expect.objectContaining({
          type: 'withdraw_exchange_transaction',
          coin: expect.objectContaining({ serial: c1.serial, issuer: expect.objectContaining({ currency: world.currency.code }) }),
          outgoingAmount: '100.00',
          incomingAmount: null,
        }),
        expect.objectContaining({
          type: 'topup_exchange_transaction',
          coin: expect.objectContaining({ serial: usd.serial, name: 'Dollars' }),
          outgoingAmount: null,
          incomingAmount: '108.50',
        }),
      ]);
      // Each side is a record too (issue 45): its own amount, coins and the exchange's request, parties and category.
      const [sold, bought] = fx.children;
      for (const side of [sold, bought]) {
        expect(side).toMatchObject({
          requestIdentifier: fx.requestIdentifier,
          requestStatus: fx.requestStatus,
          description: fx.description,
          sender: fx.sender,
          recipient: fx.recipient,
          categoryName: null,
          categoryImageLink: null,
          cashAmount: null,
          invoiceAmount: null,
          invoiceIdentifier: null,
          merchantCoinSerial: null,
          posCompanyName: null,
          operationAmountDetails: null,
        });
      }
      expect(sold).toMatchObject({
        amount: '100.00',
        netAmount: '100.00',
        commission: fx.commission,
        clientCoin: { serial: c1.serial },
        from: { serial: c1.serial },
      });
      expect(bought).toMatchObject({
        amount: '108.50',
        netAmount: '108.50',
        commission: '0.00',
        clientCoin: { serial: usd.serial },
        to: { serial: usd.serial },
      });
    });

    it('the transactions page’s filters: the family’s types and statuses, paymentIdentifiers', async () => {
      const ids = async (filter: object) => {
        const answer = await view(carol.token, { pageNumber: 0, pageSize: 20, filter, sort: { createdAt: 'desc' } });
        expectStatus(answer, 200);
        return answer.body.records.map((r: { id: string }) => r.id);
      };
      expect(await ids({ types: ['exchange_transaction'] })).toEqual([exchanged]);
      // The service's own name still works; both at once are one type.
      expect(await ids({ types: ['exchange', 'exchange_transaction'] })).toEqual([exchanged]);
      expect(await ids({ types: ['bank_redeem', 'merchant_invoice', 'gate_charge'] })).toEqual([]);
      // A family type the service has no operations of is accepted and matches nothing.
      expect(await ids({ types: ['deposit_topup'] })).toEqual([]);
      expect(await ids({ statuses: ['rejected'] })).toEqual([]);
      expect((await ids({ statuses: ['approved'] })).length).toBe(3);
      expect(await ids({ paymentIdentifiers: ['carol-pays-bob-1'] })).toEqual([paid]);
      expect(await ids({ paymentIdentifiers: ['someone-else'] })).toEqual([]);
      // A name in neither vocabulary is still a 400.
      expectError(await view(carol.token, { filter: { types: ['bogus'] } }), 400, 'exception.validation', 'filter.types');
      expectError(await view(carol.token, { filter: { statuses: ['bogus'] } }), 400, 'exception.validation', 'filter.statuses');
    });
  });

  describe('data export', () => {
    it('POST /data-export/init — the history page’s export (its filter: createdAtFrom/createdAtTo); answers id', async () => {
      const { first } = thisMonth();
      const answer = await world.server.request('POST', '/api/v1/data-export/init', {
        token: alice.token,
        body: { createdAtFrom: `${first}T00:00:00Z`, coinSerials: [a1.serial] },
      });
      expectStatus(answer, 201);
      expect(answer.body).toEqual({ status: 'ok', message: 'Export started', id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      // A filter field the history does not know is a 400, as on /transactions/view.
      expectError(
        await world.server.request('POST', '/api/v1/data-export/init', { token: alice.token, body: { colour: 'red' } }),
        400,
        'exception.validation',
        'colour',
      );
    });

    it('GET /data-export/info/{id} — polled until exportInfo.exportStatus is COMPLETE; reads fileId, and the file is the history as CSV', async () => {
      const started = await world.server.request('POST', '/api/v1/data-export/init', { token: alice.token, body: {} });
      expectStatus(started, 201);
      const info = await get(alice.token, `/data-export/info/${started.body.id}`);
      expectStatus(info, 200);
      expect(info.body.exportInfo).toEqual({
        exportStatus: 'COMPLETE',
        fileId: started.body.id,
        fileLink: `/api/v1/data-export/${started.body.id}/file`,
        createdAt: expect.any(String),
      });
      const file = await world.server.request('GET', info.body.exportInfo.fileLink, { token: alice.token });
      expectStatus(file, 200);
      expect(file.headers.get('content-type')).toMatch(/^text\/csv/);
      const lines: string[] = file.text.trim().split(/\r?\n/);
      expect(lines[0]).toBe(
        'coinSerial,currency,entryId,operationId,operationType,operationStatus,createdAt,description,amount,balance,counterpartySerial,counterpartyOrganizationId',
      );
      // a1: the top-up, three payments and Bob's 1.00; a2: the top-up and one payment.
      const rows = lines.slice(1).map((l) => l.split(','));
      expect(rows.map((r) => [r[0], r[4], r[8], r[9]])).toEqual([
        [a1.serial, 'bank_topup', '100.00', '100.00'],
        [a1.serial, 'client_transaction_transfer', '-10.00', '90.00'],
        [a1.serial, 'client_transaction_transfer', '-5.00', '85.00'],
        [a1.serial, 'client_transaction_transfer', '-25.00', '60.00'],
        [a1.serial, 'client_transaction_transfer', '1.00', '61.00'],
        [a2.serial, 'bank_topup', '20.50', '20.50'],
        [a2.serial, 'client_transaction_transfer', '-10.00', '10.50'],
      ]);
      // Another user's export is not found, for the client a NOT_FOUND.
      expectError(await get(bob.token, `/data-export/info/${started.body.id}`), 404, 'exception.data_export.not_found');
      expectError(await get(bob.token, `/data-export/${started.body.id}/file`), 404, 'exception.data_export.not_found');
    });

    it('GET /media-files/{fileId}/{token} — the history page downloads the export where it downloads every file, by the fileId info answered', async () => {
      const started = await world.server.request('POST', '/api/v1/data-export/init', {
        token: alice.token,
        body: { coinSerials: [a2.serial] },
      });
      const { fileId } = (await get(alice.token, `/data-export/info/${started.body.id}`)).body.exportInfo;
      // The client's download: its token both in the path and in the Authorization header.
      const file = await world.server.request('GET', `/api/v1/media-files/${fileId}/${alice.token}`, { token: alice.token });
      expectStatus(file, 200);
      expect(file.headers.get('content-type')).toMatch(/^text\/csv/);
      const rows = file.text
        .trim()
        .split(/\r?\n/)
        .slice(1)
        .map((l: string) => l.split(','));
      expect(rows.map((r: string[]) => [r[0], r[4], r[8]])).toEqual([
        [a2.serial, 'bank_topup', '20.50'],
        [a2.serial, 'client_transaction_transfer', '-10.00'],
      ]);
      // Someone else's export is no file of theirs.
      expectError(await get(bob.token, `/media-files/${fileId}/${bob.token}`), 404, 'exception.media_file.not_found');
    });
  });
});
