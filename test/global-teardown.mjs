import { rm } from 'node:fs/promises';

export default async function globalTeardown() {
  const state = globalThis.__FINAPI_PG__;
  if (!state) return;
  await state.pg.stop().catch(() => undefined);
  await rm(state.dir, { recursive: true, force: true }).catch(() => undefined);
}
