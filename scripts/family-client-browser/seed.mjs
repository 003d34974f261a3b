// Seeds finapi through its API for the family-client drive. Idempotent across reruns on one database: currencies,
// issuers and rates are found or created; users get a per-run suffix (RUN) so balances start fresh each run.
import { randomBytes } from 'node:crypto';

export function api(base) {
  const call = async (method, path, { token, body, headers = {} } = {}) => {
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    let json;
    try { json = JSON.parse(text); } catch { json = text; }
    return { status: res.status, body: json };
  };
  const ok = async (what, method, path, options, expect = [200, 201]) => {
    const r = await call(method, path, options);
    if (!expect.includes(r.status)) throw new Error(`${what}: ${method} ${path} → ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  return { call, ok };
}

export async function seed({ apiBase, adminLogin, adminPassword, run = randomBytes(3).toString('hex'), log = console.log }) {
  const { call, ok } = api(apiBase);
  const login = async (l, p) => (await ok(`login ${l}`, 'POST', '/authorization', { body: { login: l, password: p } })).authorizationToken.token;
  const admin = await login(adminLogin, adminPassword);
  const key = () => ({ 'idempotency-key': `seed-${run}-${randomBytes(4).toString('hex')}` });

  // Currencies USD ($) and EUR (€), their issuers, rates both ways, reserves funded.
  const currencies = {};
  for (const c of [
    { code: 'USD', digitalCode: '840', symbol: '$', name: 'US dollar', fraction: 100 },
    { code: 'EUR', digitalCode: '978', symbol: '€', name: 'Euro', fraction: 100 },
  ]) {
    const made = await call('POST', '/currencies', { token: admin, body: c });
    if (![201, 409].includes(made.status)) throw new Error(`currency ${c.code}: ${made.status} ${JSON.stringify(made.body)}`);
    currencies[c.code] = c;
  }
  const issuersList = await ok('issuers', 'GET', '/issuers', { token: admin });
  const issuerRecords = issuersList.issuers ?? issuersList.records ?? [];
  const issuers = {};
  for (const code of ['USD', 'EUR']) {
    let issuer = issuerRecords.find((i) => (i.currency?.code ?? i.currency) === code && i.active !== false);
    if (!issuer) issuer = (await ok(`issuer ${code}`, 'POST', '/issuers', { token: admin, body: { currencyCode: code, name: `${code} issuer` } })).issuer;
    issuers[code] = issuer;
  }
  await ok('rate USD→EUR', 'POST', '/exchange-rates', { token: admin, body: { fromCurrency: 'USD', toCurrency: 'EUR', rate: '0.9139' } });
  await ok('rate EUR→USD', 'POST', '/exchange-rates', { token: admin, body: { fromCurrency: 'EUR', toCurrency: 'USD', rate: '1.0850' } });
  for (const code of ['USD', 'EUR']) {
    await ok(`reserve ${code}`, 'POST', '/exchange/reserves/fund', { token: admin, headers: key(), body: { issuerId: issuers[code].id, amount: '100000.00' } });
  }

  // Gate providers (a billing one and a card acquirer) with USD products, once per database; and the individual
  // contract's gate commission profile for the billing provider (the contracts' provider-commission screens).
  const existing = (await ok('gate providers', 'GET', '/gate-providers', { token: admin })).records ?? [];
  if (!existing.some((p) => p.name === 'Mobile operator')) {
    const billing = (await ok('billing provider', 'POST', '/gate-providers', { token: admin, body: { name: 'Mobile operator', type: 'billing', settings: { secret: 'a-long-shared-secret-123' } } })).gateProvider;
    await call('POST', '/gate/products', { token: admin, body: { gateProviderId: billing.id, name: 'Mobile top-up', currency: 'USD', minAmount: '1.00', maxAmount: '200.00', fields: [{ name: 'phone', type: 'string', required: true }] } });
    const acquirer = (await ok('acquirer', 'POST', '/gate-providers', { token: admin, body: { name: 'Card acquirer', type: 'acquiring', settings: { secret: 'another-long-secret-4567' } } })).gateProvider;
    await call('POST', '/gate/products', { token: admin, body: { gateProviderId: acquirer.id, name: 'Card', currency: 'USD', minAmount: '1.00', maxAmount: '500.00', fields: [{ name: 'phone', type: 'string', required: true }] } });
    const contracts = (await ok('contracts', 'POST', '/contracts/view', { token: admin, body: { filter: {}, pageNumber: 0, pageSize: 50 } })).records ?? [];
    const indiv = contracts.find((c) => c.organizationType === 'individual');
    if (indiv) {
      await call('POST', `/contracts/${indiv.id}/gate-commission-profiles`, { token: admin, body: { gateProviderId: billing.id, currencyCode: 'USD' } }); // the client's form always sends currencyCode
      // A transfers profile without rules (no fee): the system-commission screens' rules and limits.
      await call('POST', `/contracts/${indiv.id}/commission-profiles`, { token: admin, body: { flow: 'client_transaction_transfer', issuerId: issuers.USD.id } });
    }
  }

  // Users of each role, logins are e-mails (the client's login form validates e-mail or phone).
  const users = {};
  const roles = {
    individual: 'Alice Liddell', merchant: 'Sam Shop', accountant: 'Andy Accountant',
    compliance_manager: 'Connie Compliance', cfo: 'Carl Cfo', customer_support: 'Sue Support',
  };
  for (const [role, name] of Object.entries(roles)) {
    const l = `${role.replace('_', '-')}-${run}@example.com`;
    const password = `pw-${role}-${run}-Xy9`;
    const made = await ok(`user ${role}`, 'POST', '/users', { token: admin, body: { login: l, password, name, role } });
    users[role] = { login: l, password, id: made.user.id, organizationId: made.user.members[0].organization.id, token: await login(l, password) };
  }
  users.administrator = { login: adminLogin, password: adminPassword, token: admin };
  const alice = users.individual;
  const shop = users.merchant;

  const coin = async (who, code, name, amount) => {
    const c = (await ok(`coin ${name}`, 'POST', '/coins', { token: who.token, body: { issuerId: issuers[code].id, name } })).coin;
    if (amount) await ok(`fund ${name}`, 'POST', '/bank-top-ups', { token: admin, headers: key(), body: { coinSerial: c.serial, amount } });
    return c;
  };
  // (1) 237.66 + 40.00 = $277.66. The third coin (EUR, empty) is the exchange's target.
  const aliceMain = await coin(alice, 'USD', 'Main', '237.66');
  const aliceSavings = await coin(alice, 'USD', 'Savings', '40.00');
  const aliceEur = await coin(alice, 'EUR', 'Euro wallet');
  const shopTill = await coin(shop, 'USD', 'Till', '500.00');
  const shopEur = await coin(shop, 'EUR', 'Till EUR');

  // (3) An invoice of the merchant for Alice, awaiting payment, and one for the merchant's history already paid by API.
  const invoice = (await ok('invoice', 'POST', '/invoices', {
    token: shop.token,
    body: { name: `Two coffees ${run}`, payerContact: alice.login, recipientCoin: shopTill.serial, amount: '5.00', items: [{ name: 'Coffee', quantity: 2, price: '2.50' }] },
  })).invoice;

  // (5) Alice's bank account and a bank withdrawal request (the client's body), pending for the accountant.
  const bankAccount = (await ok('bank account', 'POST', '/bank-accounts', {
    token: alice.token, body: { iban: 'DE89370400440532013000', accountHolder: 'Alice Liddell', bic: 'COBADEFFXXX', bankName: 'Commerzbank' },
  })).bankAccount;
  const approve = await call('POST', `/bank-accounts/${bankAccount.id}/approve`, { token: admin });
  const withdrawal = (await ok('withdrawal', 'POST', '/bank-withdrawals', {
    token: alice.token,
    body: { coin: aliceSavings.serial, amount: 20, bankDetails: { fullName: 'Alice Liddell', iban: 'DE89370400440532013000', name: 'Commerzbank', swift: 'COBADEFFXXX' } },
  })).bankWithdrawal;
  // A bank top-up request for the accountant's top-up queue.
  const topUpRequest = await call('POST', '/bank-top-ups/create-request', {
    token: alice.token, headers: key(), body: { coinSerial: aliceMain.serial, amount: '15.00', fullName: 'Alice Liddell', customInformation: 'salary' },
  });

  // History: Alice pays the merchant 1.00 (so both have transactions), a smart card, a point of sale.
  await ok('transfer', 'POST', '/transfers', {
    token: alice.token, headers: key(), body: { paymentTool: { type: 'COIN', srcValue: aliceMain.serial, destValue: shopTill.serial }, amount: '1.00', description: 'Seed payment' },
  });
  // Funds back to keep Alice's total at 277.66: the merchant returns 1.00.
  await ok('transfer back', 'POST', '/transfers', {
    token: shop.token, headers: key(), body: { paymentTool: { type: 'COIN', srcValue: shopTill.serial, destValue: aliceMain.serial }, amount: '1.00', description: 'Seed refund' },
  });
  const card = await call('POST', '/smart-cards/my', { token: alice.token, body: { associatedCoinSerial: aliceMain.serial, name: 'My card', active: true } });
  const pos = await call('POST', '/points-of-sale', { token: shop.token, body: { name: `Kiosk ${run}`, address: 'Main square 1' } });

  const seeded = {
    run, users, issuers,
    coins: { aliceMain, aliceSavings, aliceEur, shopTill, shopEur },
    invoice, bankAccount, bankAccountApproval: approve.status, withdrawal,
    topUpRequest: topUpRequest.body?.bankTopUp ?? topUpRequest.body,
    card: card.body?.smartCard ?? card.body, cardStatus: card.status,
    pos: pos.body?.pointOfSale ?? pos.body, posStatus: pos.status,
  };
  log(`seeded run ${run}: individual ${alice.login}, merchant ${shop.login}, invoice ${invoice.identifier ?? invoice.id}, withdrawal ${withdrawal.requestIdentifier ?? withdrawal.id}, card ${card.status}, pos ${pos.status}`);
  return seeded;
}
