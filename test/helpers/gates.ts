import { expectStatus } from './money';
import type { TestServer } from './server';

/**
 * A gate provider of `type` (named `name` and a random tag, with its `settings`) and one product of it (named
 * `product` and the same tag) on sale in `currency` from 1.00 to `maxAmount`, asking the payer `fields`: both made by
 * the administrator, both answered as created.
 */
export async function aGate(
  server: TestServer,
  admin: string,
  options: {
    type: string;
    name: string;
    settings: Record<string, unknown>;
    product: string;
    currency: string;
    maxAmount?: string;
    fields?: unknown[];
  },
) {
  const tag = Math.random().toString(36).slice(2, 8);
  const provider = await server.request('POST', '/api/v1/gate-providers', {
    token: admin,
    body: { name: `${options.name} ${tag}`, type: options.type, settings: options.settings },
  });
  expectStatus(provider, 201);
  const product = await server.request('POST', '/api/v1/gate/products', {
    token: admin,
    body: {
      gateProviderId: provider.body.gateProvider.id,
      name: `${options.product} ${tag}`,
      currency: options.currency,
      minAmount: '1.00',
      maxAmount: options.maxAmount ?? '1000.00',
      fields: options.fields ?? [],
    },
  });
  expectStatus(product, 201);
  return { provider: provider.body.gateProvider, product: product.body.product };
}
