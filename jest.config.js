/** @type {import('jest').Config} */
module.exports = {
  rootDir: '.',
  testMatch: ['<rootDir>/test/**/*.spec.ts', '<rootDir>/src/**/*.spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: false }] },
  testEnvironment: 'node',
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  testTimeout: 60000,
  // Suites run in two parallel workers; test/runner.js adds a third for the timing suite (it mostly sleeps) and runs the
  // document check last.
  maxWorkers: 2,
  runner: '<rootDir>/test/runner.js',
  forceExit: true,
};
