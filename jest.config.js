// Three suites: unit (pure logic, no servers), component (one service or lib
// against real MongoDB-wire, NATS and S3 servers), e2e (the whole system
// started as the README starts it, spoken to over HTTP).
const swc = ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }];

const shared = {
  transform: { '^.+\\.ts$': swc },
  // Jest's node environment that also disables each test file's AsyncLocalStorage
  // stores when the file is done (why: libs/testing/src/jest-node-environment.ts).
  testEnvironment: '<rootDir>/libs/testing/src/jest-node-environment.ts',
  moduleFileExtensions: ['ts', 'js', 'json'],
  // Tests run against the libraries' sources, not their build output.
  moduleNameMapper: { '^@hangar/([a-z-]+)$': '<rootDir>/libs/$1/src' },
  rootDir: __dirname,
};

module.exports = {
  // Per-test (and per-hook) time limit; only honoured at the top level, not per project.
  testTimeout: 120_000,
  // jest's order, with the end-to-end files on a shared Hangar last (why: the file itself).
  testSequencer: '<rootDir>/libs/testing/test-sequencer.js',
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/libs/*/src/**/*.test.ts', '<rootDir>/services/*/src/**/*.test.ts', '<rootDir>/clients/*/src/**/*.test.ts', '<rootDir>/tests/deploy/**/*.test.ts'],
    },
    {
      ...shared,
      displayName: 'component',
      testMatch: ['<rootDir>/libs/*/test/**/*.test.ts', '<rootDir>/services/*/test/**/*.test.ts'],
      globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
      globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/tests/e2e/**/*.test.ts'],
      globalSetup: '<rootDir>/libs/testing/src/jest-e2e-global-setup.ts',
      globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
    },
    // The plan check reads what the three suites above recorded, so it runs
    // after them, in a jest run of its own (scripts/test.mjs), never beside them.
    ...(process.env.HANGAR_PLAN_CHECK === '1'
      ? [
          {
            ...shared,
            displayName: 'plans',
            testMatch: ['<rootDir>/tests/plans/**/*.test.ts'],
            globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
            globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
          },
        ]
      : []),
  ],
};
