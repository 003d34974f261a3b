import { Actor, adminToken, aUser } from './actors';
import { aCoin, aCurrency, anIssuer, CoinBody, CurrencyBody, fund, IssuerBody, recording } from './money';
import { startServer, TestServer } from './server';
import { aFee, ConditionBody, limitsOn } from './commissions';

/** A running service with an administrator, a currency and an issuer: what every money suite starts from. */
export interface MoneyWorld {
  /** Records every answer; after each test none may be a 5xx or break the error shape. */
  server: ReturnType<typeof recording>;
  raw: TestServer;
  admin: string;
  currency: CurrencyBody;
  issuer: IssuerBody;
  /** A new user (an individual unless said otherwise), logged in. */
  user(options?: Parameters<typeof aUser>[2]): Promise<Actor>;
  /** A new coin of `owner` at the world's issuer (or `issuerId`), topped up with `amount` when given. */
  coin(owner: Actor, amount?: string, issuerId?: string): Promise<CoinBody>;
  /** A payer coin of `payer` holding `amount` and an empty payee coin of `payee`. */
  pair(payer: Actor, payee: Actor, amount?: string): Promise<[CoinBody, CoinBody]>;
  /**
   * A user made once for the suite: called where the suite is declared, it answers an empty object that a
   * `beforeAll` hook fills in (after the world's, before those declared below it); read it in tests and later hooks.
   */
  suiteUser(options?: Parameters<typeof aUser>[2]): Actor;
  /** A coin of `owner` (a suite user) made once for the suite, topped up with `amount` when given: filled in like `suiteUser`. */
  suiteCoin(owner: Actor, amount?: string): CoinBody;
  /**
   * A new individual with a coin holding `amount`, under a contract of its own that prices `flow` at the world's
   * issuer: a `fee` (paid by `payer`, the sender unless said) or `limits`.
   */
  customer(
    amount: string,
    terms: { flow: string; fee?: ConditionBody[]; payer?: 'sender' | 'recipient'; limits?: Parameters<typeof limitsOn>[2]['limits'] },
  ): Promise<{ user: Actor; coin: CoinBody }>;
}

/** An object that a `beforeAll` hook fills in with what `make` answers. */
function filledBeforeAll<T extends object>(make: () => Promise<T>): T {
  const value = {} as T;
  beforeAll(async () => {
    Object.assign(value, await make());
  });
  return value;
}

/**
 * Registers the suite's hooks (start the service on a fresh database, log in the administrator,
 * create a currency with `fraction` and an issuer; stop it after; check every answer after each
 * test) and answers the world, filled in once `beforeAll` has run. `env` adds to the service's environment.
 */
export function moneyWorld(options: { fraction?: number; env?: Record<string, string> } = {}): MoneyWorld {
  const world = {
    async user(userOptions) {
      return aUser(world.server, world.admin, userOptions);
    },
    async coin(owner, amount, issuerId) {
      const coin = await aCoin(world.server, owner.token, issuerId ?? world.issuer.id);
      if (amount !== undefined && amount !== '0') await fund(world.server, world.admin, coin.serial, amount);
      return coin;
    },
    async pair(payer, payee, amount = '100.00') {
      return [await world.coin(payer, amount), await world.coin(payee)];
    },
    async customer(amount, { flow, fee, payer, limits }) {
      const user = await world.user();
      const coin = await world.coin(user, amount);
      const terms = { organizationId: user.organizationId, issuerId: world.issuer.id, flow };
      if (fee) await aFee(world.server, world.admin, { ...terms, conditions: fee, payer });
      if (limits) await limitsOn(world.server, world.admin, { ...terms, limits });
      return { user, coin };
    },
    suiteUser(userOptions) {
      return filledBeforeAll(() => world.user(userOptions));
    },
    suiteCoin(owner, amount) {
      return filledBeforeAll(() => world.coin(owner, amount));
    },
  } as MoneyWorld;
  beforeAll(async () => {
    world.raw = await startServer(options.env);
    world.server = recording(world.raw);
    world.admin = await adminToken(world.server);
    world.currency = await aCurrency(world.server, world.admin, options.fraction === undefined ? {} : { fraction: options.fraction });
    world.issuer = await anIssuer(world.server, world.admin, world.currency.code);
  });
  afterAll(() => world.raw?.stop());
  afterEach(() => world.server?.expectCleanResponses());
  return world;
}

/**
 * A running service on a fresh database and its administrator's token, and nothing more (no currency, no check of the
 * answers): the suite's hooks start it before its tests and stop it after; the fields are filled in once `beforeAll` has run.
 */
export function serviceWorld(env?: Record<string, string>): { server: TestServer; admin: string } {
  const world = {} as { server: TestServer; admin: string };
  beforeAll(async () => {
    world.server = await startServer(env);
    world.admin = await adminToken(world.server);
  });
  afterAll(() => world.server?.stop());
  return world;
}

/**
 * On a service started without a world: the administrator's token, a new currency and its issuer, Alice's coin holding
 * `amount` and Bob's empty coin.
 */
export async function aFundedPair(server: TestServer, amount: string) {
  const admin = await adminToken(server);
  const currency = await aCurrency(server, admin);
  const issuer = await anIssuer(server, admin, currency.code);
  const alice = await aUser(server, admin);
  const bob = await aUser(server, admin);
  const from = await aCoin(server, alice.token, issuer.id);
  const to = await aCoin(server, bob.token, issuer.id);
  await fund(server, admin, from.serial, amount);
  return { admin, issuer, alice, bob, from, to };
}
