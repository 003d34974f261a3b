import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import finapi from './eslint-rules/money-tables.mjs';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  {
    // Repositories own their tables: only they (and the database layer) run SQL.
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.repository.ts', 'src/platform/database/**', 'src/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'typeorm',
              importNames: ['DataSource', 'EntityManager', 'QueryRunner', 'Repository'],
              message: 'Run SQL in a <feature>.repository.ts through Database; open transactions with UnitOfWork.',
            },
            { name: 'pg', message: 'Run SQL in a <feature>.repository.ts through Database.' },
            { name: '@nestjs/typeorm', message: 'Only src/platform/database/ configures TypeORM.' },
          ],
          patterns: [
            {
              group: ['**/database/database', '**/database/transaction-context'],
              message: 'Only repositories run SQL (through Database); services use UnitOfWork.',
            },
          ],
        },
      ],
    },
  },
  {
    // Money moves only through the ledger kernel: no SQL elsewhere writes coins' balances, entries, holds or operations.
    files: ['src/**/*.ts'],
    ignores: ['src/**/ledger/**', 'src/**/*.spec.ts'],
    plugins: { finapi },
    rules: { 'finapi/money-tables': 'error' },
  },
  {
    // Tests read JSON answers whose shape the assertions themselves check.
    files: ['test/**/*.ts', 'src/**/*.spec.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['test/**/*.mjs', '*.js', '*.mjs', 'eslint-rules/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        globalThis: 'readonly',
        module: 'writable',
        require: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
      },
    },
  },
);
