/** @type {import('jest').Config} */
module.exports = {
  rootDir: '.',
  testMatch: ['<rootDir>/test/**/*.spec.ts', '<rootDir>/src/**/*.spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: false }] },
  testEnvironment: 'node',
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  testTimeout: 60000,
  // Suites run in three parallel workers (on two cores: suites wait on sleeps, services and PostgreSQL, and a third
  // worker fills those gaps); test/runner.js adds one more for the timing suite (it mostly sleeps) and runs the
  // document check last.
  maxWorkers: 3,
  runner: '<rootDir>/test/runner.js',
  forceExit: true,
};
