import type { ApiResponse, TestServer } from './server';

async function ok(what: string, response: ApiResponse): Promise<any> {
  if (response.status < 200 || response.status > 299) throw new Error(`${what} failed: ${response.status} ${response.text}`);
  return response.body;
}

/** Sets the rate from→to (currency codes) as the administrator. */
export async function aRate(server: TestServer, admin: string, from: string, to: string, rate: string, validFrom?: string): Promise<any> {
  const response = await server.request('POST', '/api/v1/exchange-rates', {
    token: admin,
    body: { fromCurrency: from, toCurrency: to, rate, ...(validFrom ? { validFrom } : {}) },
  });
  return (await ok(`setting the rate ${from}→${to}`, response)).rate;
}

/** Funds an issuer's exchange reserve from its bank-settlement coin (staff). */
export async function fundReserve(server: TestServer, admin: string, issuerId: string, amount: string): Promise<any> {
  const response = await server.request('POST', '/api/v1/exchange/reserves/fund', { token: admin, body: { issuerId, amount } });
  return (await ok('funding a reserve', response)).process;
}

/** An issuer's system coin of a kind (exchange_reserve, voucher_reserve, commission, …) and its balance, from the database. */
export async function systemCoinOf(
  server: TestServer,
  issuerId: string,
  kind: string,
): Promise<{ serial: string; balance: string } | undefined> {
  const { rows } = await server.db.query(
    `SELECT serial::text AS serial, balance::text AS balance FROM coins WHERE issuer_id = $1 AND type = 'system' AND system_kind = $2`,
    [issuerId, kind],
  );
  return rows[0];
}

export function exchange(
  server: TestServer,
  token: string,
  body: { fromCoin: string; toCoin: string; amount: string | number; direction: string; [key: string]: unknown },
  key?: string,
): Promise<ApiResponse> {
  return server.request('POST', '/api/v1/exchange', { token, body, headers: key ? { 'idempotency-key': key } : {} });
}

/** Σ of every coin's balance per currency code (client and system coins alike): what money-only-moves keeps constant. */
export async function sumsPerCurrency(server: TestServer): Promise<Record<string, string>> {
  const { rows } = await server.db.query(
    `SELECT cu.code, sum(c.balance)::text AS total FROM coins c JOIN currencies cu ON cu.id = c.currency_id GROUP BY cu.code ORDER BY cu.code`,
  );
  return Object.fromEntries(rows.map((r: { code: string; total: string }) => [r.code, r.total]));
}
