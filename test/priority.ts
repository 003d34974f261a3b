import { setPriority } from 'node:os';

/**
 * Runs in every suite's worker before the suite (jest's setupFilesAfterEnv). The suites that measure time keep the
 * normal CPU priority; every other suite lowers its worker's (nice 10, inherited by the services it starts), so the
 * timing suite, which starts first on a fresh worker, is served first whenever both want a core.
 */
const MEASURING = ['timing.e2e.spec.ts'];

if (process.env.FINAPI_NICE === '1' && !MEASURING.some((name) => expect.getState().testPath?.endsWith(`/${name}`))) setPriority(10);
