import { percent } from '../helpers/commissions';
import { balanceOf, expectBalancedLedger, expectError, expectStatus } from '../helpers/money';
import { moneyWorld } from '../helpers/world';

/**
 * The family web client's `vouchers` and `points-of-sale` modules: every call with the body its call sites send and
 * the answer fields its screens read. Its vouchers are "prepaid coins": bought with { srcSerial, prepaidAmount }, shown
 * by serial with a PIN (the voucher's code), redeemed with { destSerial, prepaidPin } under the serial.
 */
describe('family client: vouchers and points of sale', () => {
  const world = moneyWorld();
  const req = (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
    world.server.request(method, `/api/v1${path}`, { token, headers, ...(body !== undefined ? { body } : {}) });

  /** A creator with a funded wallet, and a voucher bought through the client's call. */
  const bought = async (prepaidAmount: string | number = '25.00') => {
    const creator = await world.user();
    const wallet = await world.coin(creator, '100.00');
    const created = await req('POST', '/prepaid-coins', creator.token, { srcSerial: wallet.serial, prepaidAmount });
    expectStatus(created, 201);
    return { creator, wallet, serial: created.body.coin.serial as string, pin: created.body.pin as string };
  };

  describe('vouchers', () => {
    it('POST /prepaid-coins/calculate — the add form’s body; reads commissionAmountPush, recipientAmountPush and issuer.currency', async () => {
      const { user: creator, coin: wallet } = await world.customer('100.00', { flow: 'voucher', fee: percent('2') });
      // The form's model starts with a number; the input then holds what was typed.
      const answer = await req('POST', '/prepaid-coins/calculate', creator.token, { srcSerial: wallet.serial, prepaidAmount: 50 });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        transactionAmount: '50.00',
        senderAmountPush: '51.00',
        recipientAmountPush: '50.00',
        commissionAmountPush: '1.00',
        issuer: { id: world.issuer.id, sn: world.issuer.sn, currency: world.currency.code },
      });
      // A calculation moves nothing; the purchase then charges what it said.
      expect(await balanceOf(world.server, creator.token, wallet.serial)).toBe('100.00');
      const created = await req('POST', '/prepaid-coins', creator.token, { srcSerial: wallet.serial, prepaidAmount: '50' });
      expect(created.body.process).toMatchObject({ amount: '50.00', commission: '1.00' });
      expect(await balanceOf(world.server, creator.token, wallet.serial)).toBe('49.00');
      expectError(
        await req('POST', '/prepaid-coins/calculate', creator.token, { srcSerial: wallet.serial, prepaidAmount: 'ten' }),
        400,
        'exception.validation',
        'prepaidAmount',
      );
      const stranger = await world.user();
      expectError(
        await req('POST', '/prepaid-coins/calculate', stranger.token, { srcSerial: wallet.serial, prepaidAmount: '1' }),
        404,
        'exception.coin.not_found',
      );
      // A fee the voucher bears that would leave it worth nothing is refused before anything moves.
      const { user: greedy, coin: greedyWallet } = await world.customer('10.00', {
        flow: 'voucher',
        fee: percent('100'),
        payer: 'recipient',
      });
      expectError(
        await req('POST', '/prepaid-coins/calculate', greedy.token, { srcSerial: greedyWallet.serial, prepaidAmount: '5.00' }),
        409,
        'exception.commission.exceeds_amount',
      );
    });

    it('POST /prepaid-coins — the add form’s body buys a voucher once; reads pin, coin.amount and coin.serial', async () => {
      const creator = await world.user();
      const wallet = await world.coin(creator, '100.00');
      const body = { srcSerial: wallet.serial, prepaidAmount: '25.00' };
      const headers = { 'Idempotency-Key': `prepaid-${wallet.serial}` };
      const created = await req('POST', '/prepaid-coins', creator.token, body, headers);
      expect(created.status).toBe(201);
      expect(created.body.pin).toMatch(/^[0-9a-f]{32}$/);
      expect(created.body.coin).toMatchObject({
        serial: expect.stringMatching(/^[1-9][0-9]{15}$/),
        amount: '25.00',
        issuer: { currency: world.currency.code },
      });
      // The client types the answer's coin as a wallet: a voucher's value is whole, nothing held, no credit.
      expect(created.body.coin).toMatchObject({ availableAmount: '25.00', heldAmount: '0.00', futureAmount: '25.00', creditLimit: '0.00' });
      expect(created.body.name).toBe(`Voucher 25.00 ${world.currency.code}`);
      expect(created.body.process).toMatchObject({ type: 'voucher_create', status: 'processed', amount: '25.00' });
      // A retry takes effect once, and no longer shows the PIN.
      const again = await req('POST', '/prepaid-coins', creator.token, body, headers);
      expect(again.body.coin.serial).toBe(created.body.coin.serial);
      expect(again.body.pin).toBeNull();
      expect(await balanceOf(world.server, creator.token, wallet.serial)).toBe('75.00');
      expectError(await req('POST', '/prepaid-coins', creator.token, { ...body, prepaidAmount: '26.00' }, headers), 422);
      const stranger = await world.user();
      expectError(
        await req('POST', '/prepaid-coins', stranger.token, { srcSerial: wallet.serial, prepaidAmount: '1.00' }),
        404,
        'exception.coin.not_found',
      );
      expectError(
        await req('POST', '/prepaid-coins', creator.token, { srcSerial: wallet.serial, prepaidAmount: '500.00' }),
        409,
        'exception.coin.insufficient_funds',
      );
      expectError(
        await req('POST', '/prepaid-coins', creator.token, { srcSerial: wallet.serial }),
        400,
        'exception.validation',
        'prepaidAmount',
      );
    });

    it('POST /prepaid-coins/view — the vouchers page’s body; reads serial, createdAt, activatedAt, amount, status and issuer.currency', async () => {
      const { creator, wallet, serial, pin } = await bought('10.00');
      const second = await req('POST', '/prepaid-coins', creator.token, { srcSerial: wallet.serial, prepaidAmount: '20.00' });
      const bearer = await world.user();
      const target = await world.coin(bearer);
      expectStatus(
        await req('POST', `/prepaid-coins/${serial}/activate`, bearer.token, { destSerial: target.serial, prepaidPin: pin }),
        201,
      );

      const page = await req('POST', '/prepaid-coins/view', creator.token, { filter: {}, pageNumber: 0, sort: { createdAt: 'desc' } });
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ totalRecords: 2, pageNumber: 0 });
      expect(page.body.records.map((r: any) => r.serial)).toEqual([second.body.coin.serial, serial]);
      expect(page.body.records[1]).toMatchObject({
        serial,
        amount: '10.00',
        status: 'processed',
        createdAt: expect.any(String),
        activatedAt: expect.any(String),
        issuer: { id: world.issuer.id, currency: world.currency.code },
      });
      expect(page.body.records[0]).toMatchObject({ status: 'pending', activatedAt: null });
      // The page's filters: activated, and the creation and activation dates.
      const activated = await req('POST', '/prepaid-coins/view', creator.token, {
        filter: { activated: true },
        pageNumber: 0,
        sort: { createdAt: 'desc' },
      });
      expect(activated.body.records.map((r: any) => r.serial)).toEqual([serial]);
      const pending = await req('POST', '/prepaid-coins/view', creator.token, { filter: { activated: false }, pageNumber: 0 });
      expect(pending.body.records.map((r: any) => r.serial)).toEqual([second.body.coin.serial]);
      const later = new Date(Date.now() + 3_600_000).toISOString();
      const none = await req('POST', '/prepaid-coins/view', creator.token, { filter: { createdAtFrom: later }, pageNumber: 0 });
      expect(none.body.records).toEqual([]);
      const redeemedSince = await req('POST', '/prepaid-coins/view', creator.token, {
        filter: { activatedAtFrom: new Date(Date.now() - 3_600_000).toISOString(), activatedAtTo: later },
        pageNumber: 0,
      });
      expect(redeemedSince.body.records.map((r: any) => r.serial)).toEqual([serial]);
      expectError(await req('POST', '/prepaid-coins/view', creator.token, { filter: { activated: 'maybe' } }), 400, 'exception.validation');
    });

    it('GET /prepaid-coins/{serial}/view — the redeem form’s first step; reads amount, issuer.id (to pick the wallet) and issuer.currency', async () => {
      const { serial, pin } = await bought('12.50');
      const bearer = await world.user();
      const target = await world.coin(bearer);
      const info = await req('GET', `/prepaid-coins/${serial}/view`, bearer.token);
      expect(info.status).toBe(200);
      expect(info.body).toMatchObject({ serial, amount: '12.50', issuer: { currency: world.currency.code } });
      // Declared by the client's type: a voucher viewed here is never activated yet (a redeemed one is a 409 below).
      expect(info.body).toHaveProperty('activatedAt', null);
      // The form finds the wallet to credit by the issuer's id, as the wallets list answers it.
      const wallets = await req('GET', '/coins', bearer.token);
      expect(wallets.body.coins.find((c: any) => c.issuer.id === info.body.issuer.id)?.serial).toBe(target.serial);
      expect(JSON.stringify(info.body)).not.toContain(pin);
      expectError(await req('GET', '/prepaid-coins/9999999999999999/view', bearer.token), 404, 'exception.voucher.not_found');
      expectError(await req('GET', '/prepaid-coins/not-a-serial/view', bearer.token), 400, 'exception.validation');
      expectStatus(
        await req('POST', `/prepaid-coins/${serial}/activate`, bearer.token, { destSerial: target.serial, prepaidPin: pin }),
        201,
      );
      expectError(await req('GET', `/prepaid-coins/${serial}/view`, bearer.token), 409, 'exception.voucher.redeemed');
    });

    it('POST /prepaid-coins/{serial}/calculate — { destSerial, prepaidPin }; reads transactionAmount, commissionAmountPush, recipientAmountPush, issuer.currency', async () => {
      const { serial, pin } = await bought('30.00');
      const bearer = await world.user();
      const target = await world.coin(bearer);
      const answer = await req('POST', `/prepaid-coins/${serial}/calculate`, bearer.token, { destSerial: target.serial, prepaidPin: pin });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        transactionAmount: '30.00',
        commissionAmountPush: '0.00',
        recipientAmountPush: '30.00',
        issuer: { id: world.issuer.id, sn: world.issuer.sn, currency: world.currency.code },
      });
      expect(await balanceOf(world.server, bearer.token, target.serial)).toBe('0.00');
      // Another voucher's PIN under this serial is as unknown as a wrong one.
      const other = await bought('5.00');
      expectError(
        await req('POST', `/prepaid-coins/${serial}/calculate`, bearer.token, { destSerial: target.serial, prepaidPin: other.pin }),
        404,
        'exception.voucher.not_found',
      );
      expectError(
        await req('POST', `/prepaid-coins/${serial}/calculate`, bearer.token, { destSerial: target.serial, prepaidPin: '1234' }),
        400,
        'exception.validation',
        'prepaidPin',
      );
      expectError(
        await req('POST', `/prepaid-coins/${serial}/calculate`, bearer.token, { destSerial: other.wallet.serial, prepaidPin: pin }),
        404,
        'exception.coin.not_found',
      );
    });

    it('POST /prepaid-coins/{serial}/activate — redeems once into the caller’s wallet; reads process.amount and process.from.serial', async () => {
      const { creator, serial, pin } = await bought('40.00');
      const other = await bought('7.00');
      const bearer = await world.user();
      const target = await world.coin(bearer);
      const body = { destSerial: target.serial, prepaidPin: pin };
      // The PIN of another voucher under this serial redeems nothing.
      expectError(
        await req('POST', `/prepaid-coins/${serial}/activate`, bearer.token, { ...body, prepaidPin: other.pin }),
        404,
        'exception.voucher.not_found',
      );
      expect(await balanceOf(world.server, bearer.token, target.serial)).toBe('0.00');

      const headers = { 'Idempotency-Key': `activate-${serial}` };
      const done = await req('POST', `/prepaid-coins/${serial}/activate`, bearer.token, body, headers);
      expect(done.status).toBe(201);
      expect(done.body.process).toMatchObject({
        type: 'voucher_redeem',
        amount: '40.00',
        from: { serial: expect.any(String) },
        to: { serial: target.serial },
      });
      const replay = await req('POST', `/prepaid-coins/${serial}/activate`, bearer.token, body, headers);
      expect(replay.body.process.id).toBe(done.body.process.id);
      expectError(await req('POST', `/prepaid-coins/${serial}/activate`, bearer.token, body), 409, 'exception.voucher.redeemed');
      expectError(await req('POST', `/prepaid-coins/${serial}/activate`, bearer.token, { ...body, prepaidPin: other.pin }, headers), 422);
      expectError(await req('POST', `/prepaid-coins/${serial}/calculate`, bearer.token, body), 409, 'exception.voucher.redeemed');
      expect(await balanceOf(world.server, bearer.token, target.serial)).toBe('40.00');
      const mine = await req('POST', '/prepaid-coins/view', creator.token, { filter: {}, pageNumber: 0 });
      expect(mine.body.records[0]).toMatchObject({ serial, status: 'processed' });
      await expectBalancedLedger(world.server, world.admin);
    });
  });

  describe('points of sale', () => {
    const aShop = async () => {
      const merchant = await world.user({ role: 'merchant' });
      const till = await world.coin(merchant);
      return { merchant, till };
    };
    /** The create form's body, every field filled (the form leaves out empty ones and keeps booleans). */
    const formBody = (categoryId?: string) => ({
      posCompanyName: 'Corner Bakery',
      description: 'Bread and pastries',
      website: 'https://bakery.example',
      serverUrl: 'https://bakery.example/payments',
      resultUrl: 'https://bakery.example/thanks',
      ...(categoryId ? { categoryId } : {}),
      trustAllCertificates: false,
    });
    const aCategory = async (token: string) =>
      (await req('POST', '/transaction-categories', token, { name: `Sales ${Math.random().toString(36).slice(2, 8)}` })).body.category;

    it('POST /points-of-sale — the form’s body; trustAllCertificates only false, a category only the caller’s own', async () => {
      const { merchant } = await aShop();
      const category = await aCategory(merchant.token);
      const created = await req('POST', '/points-of-sale', merchant.token, formBody(category.id));
      expect(created.status).toBe(201);
      expect(created.body.pos).toMatchObject({
        id: expect.any(String),
        posCompanyName: 'Corner Bakery',
        description: 'Bread and pastries',
        website: 'https://bakery.example',
        serverUrl: 'https://bakery.example/payments',
        resultUrl: 'https://bakery.example/thanks',
        txCategoryId: category.id,
        txCategoryCode: category.name,
        trustAllCertificates: false,
        active: true,
      });
      expect(created.body.pointOfSale).toEqual(created.body.pos);
      // The form sends only what is filled in.
      expectStatus(await req('POST', '/points-of-sale', merchant.token, { posCompanyName: 'Kiosk', description: 'Newspapers' }), 201);
      expectError(
        await req('POST', '/points-of-sale', merchant.token, { ...formBody(), trustAllCertificates: true }),
        400,
        'exception.validation',
        'trustAllCertificates',
      );
      expectError(
        await req('POST', '/points-of-sale', merchant.token, { ...formBody(), serverUrl: 'ftp://bakery.example' }),
        400,
        'exception.validation',
        'serverUrl',
      );
      expectError(
        await req('POST', '/points-of-sale', merchant.token, { description: 'No name' }),
        400,
        'exception.validation',
        'posCompanyName',
      );
      const stranger = await aShop();
      const theirs = await aCategory(stranger.merchant.token);
      expectError(await req('POST', '/points-of-sale', merchant.token, formBody(theirs.id)), 400, 'exception.validation', 'categoryId');
    });

    it('GET /points-of-sale — the list page; reads records[].id, posCompanyName, description, website and active', async () => {
      const { merchant } = await aShop();
      await req('POST', '/points-of-sale', merchant.token, formBody());
      await req('POST', '/points-of-sale', merchant.token, { posCompanyName: 'Airport stand', description: 'Gate 4', active: false });
      await req('POST', '/points-of-sale', (await aShop()).merchant.token, { posCompanyName: 'Someone else' });
      const list = await req('GET', '/points-of-sale', merchant.token);
      expect(list.status).toBe(200);
      expect(list.body.totalRecords).toBe(2);
      expect(list.body.records).toEqual([
        expect.objectContaining({
          id: expect.any(String),
          posCompanyName: 'Airport stand',
          description: 'Gate 4',
          website: null,
          active: false,
        }),
        expect.objectContaining({
          posCompanyName: 'Corner Bakery',
          description: 'Bread and pastries',
          website: 'https://bakery.example',
          active: true,
        }),
      ]);
      expectError(await req('GET', '/points-of-sale', (await world.user()).token), 403);
    });

    it('GET /points-of-sale/{id} — the details page reads pos (posCompanyName, description, id, trustAllCertificates, active, URLs, txCategoryCode)', async () => {
      const { merchant } = await aShop();
      const category = await aCategory(merchant.token);
      const id = (await req('POST', '/points-of-sale', merchant.token, formBody(category.id))).body.pos.id;
      const one = await req('GET', `/points-of-sale/${id}`, merchant.token);
      expect(one.status).toBe(200);
      expect(one.body.pos).toMatchObject({
        id,
        posCompanyName: 'Corner Bakery',
        description: 'Bread and pastries',
        trustAllCertificates: false,
        active: true,
        serverUrl: 'https://bakery.example/payments',
        resultUrl: 'https://bakery.example/thanks',
        txCategoryCode: category.name,
      });
      expectError(await req('GET', `/points-of-sale/${id}`, (await aShop()).merchant.token), 404, 'exception.point_of_sale.not_found');
    });

    it('PATCH /points-of-sale/{id} — the edit form’s body changes what it sends and keeps the rest', async () => {
      const { merchant } = await aShop();
      const id = (await req('POST', '/points-of-sale', merchant.token, formBody())).body.pos.id;
      const category = await aCategory(merchant.token);
      const edit = { ...formBody(category.id), posCompanyName: 'Corner Bakery & Café', resultUrl: 'https://bakery.example/done' };
      const changed = await req('PATCH', `/points-of-sale/${id}`, merchant.token, edit);
      expect(changed.status).toBe(200);
      expect(changed.body.pos).toMatchObject({
        id,
        posCompanyName: 'Corner Bakery & Café',
        name: 'Corner Bakery & Café',
        resultUrl: 'https://bakery.example/done',
        website: 'https://bakery.example',
        txCategoryId: category.id,
        active: true,
      });
      const partly = await req('PATCH', `/points-of-sale/${id}`, merchant.token, { description: 'Open on Sundays' });
      expect(partly.body.pos).toMatchObject({ posCompanyName: 'Corner Bakery & Café', description: 'Open on Sundays' });
      expectError(
        await req('PATCH', `/points-of-sale/${id}`, merchant.token, { trustAllCertificates: true }),
        400,
        'exception.validation',
        'trustAllCertificates',
      );
      expectError(
        await req('PATCH', `/points-of-sale/${id}`, merchant.token, { posCompanyName: null }),
        400,
        'exception.validation',
        'posCompanyName',
      );
      expectError(await req('PATCH', `/points-of-sale/${id}`, merchant.token, { active: null }), 400, 'exception.validation', 'active');
      expect((await req('GET', `/points-of-sale/${id}`, merchant.token)).body.pos.description).toBe('Open on Sundays');
    });

    it('POST /points-of-sale/{id}/transactions/view — the details page’s body; reads the payments taken there', async () => {
      const { merchant, till } = await aShop();
      const alice = await world.user();
      const wallet = await world.coin(alice, '50.00');
      const here = (await req('POST', '/points-of-sale', merchant.token, formBody())).body.pos.id;
      const elsewhere = (await req('POST', '/points-of-sale', merchant.token, { posCompanyName: 'Market stall' })).body.pos.id;
      const pay = (posId: string, amount: string) =>
        req(
          'POST',
          '/merchant-payments',
          alice.token,
          { posId, amount, payer: { method: 'coin', value: wallet.serial } },
          { 'idempotency-key': `${posId}-${amount}` },
        );
      const first = await pay(here, '3.00');
      expectStatus(first, 201);
      expectStatus(await pay(elsewhere, '4.00'), 201);
      const second = await pay(here, '5.00');

      const page = await req('POST', `/points-of-sale/${here}/transactions/view`, merchant.token, { filter: {}, pageNumber: 0 });
      expect(page.status).toBe(200);
      expect(page.body.totalRecords).toBe(2);
      expect(page.body.records.map((r: any) => r.id)).toEqual([second.body.process.id, first.body.process.id]);
      expect(page.body.records[1]).toMatchObject({
        amount: '3.00',
        status: 'processed',
        from: { serial: wallet.serial },
        to: { serial: till.serial },
      });
      // Each a record of the family's (issue 45): the point of sale's name, the merchant's coin, the payer's coin.
      expect(page.body.records[1]).toMatchObject({
        posCompanyName: formBody().posCompanyName,
        invoiceAmount: '3.00',
        invoiceIdentifier: null,
        merchantCoinSerial: till.serial,
        netAmount: '3.00',
        cashAmount: null,
        clientCoin: { serial: till.serial },
        coin: { serial: till.serial },
        incomingAmount: '3.00',
        outgoingAmount: null,
        operationAmountDetails: { senderGrossAmount: '3.00', recipientNetAmount: '3.00' },
        categoryName: null,
        categoryImageLink: null,
      });
      // The transaction filters work here too; an empty point of sale has none.
      const small = await req('POST', `/points-of-sale/${here}/transactions/view`, merchant.token, {
        filter: { ids: [first.body.process.id] },
        pageNumber: 0,
      });
      expect(small.body.records.map((r: any) => r.id)).toEqual([first.body.process.id]);
      const empty = (await req('POST', '/points-of-sale', merchant.token, { posCompanyName: 'New till' })).body.pos.id;
      expect(
        (await req('POST', `/points-of-sale/${empty}/transactions/view`, merchant.token, { filter: {}, pageNumber: 0 })).body,
      ).toMatchObject({ totalRecords: 0, records: [] });
      expectError(
        await req('POST', `/points-of-sale/${here}/transactions/view`, (await aShop()).merchant.token, { pageNumber: 0 }),
        404,
        'exception.point_of_sale.not_found',
      );
    });
  });
});
