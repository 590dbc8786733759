import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', '.test-data/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // A workspace is reached through its package name and its `exports`, never by a relative path into its folder:
    // a relative import across workspaces couples to another package's file layout and escapes its public surface.
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
    },
    rules: { 'import-x/no-relative-packages': 'error' },
  },
  {
    // The read side takes the read models' row types from the projections that declare their tables, never their
    // code: a type import is erased, so the services stay apart at run time (their tests may run projections; the
    // service's main names the read models its reads wait for and the migrations it runs).
    files: ['query-api/src/**/*.ts'],
    ignores: ['query-api/src/**/*.test.ts', 'query-api/src/main.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@pawhaven/projections',
              message: 'query-api imports only the row types of @pawhaven/projections (import type).',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['frontend/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      // The React Compiler's rules (we do not compile with it) flag intended patterns here: a ref holding the latest
      // callback or value, written during render and read by socket and timer handlers (`refs`); state reset when
      // an outside fact changes (`set-state-in-effect`); the notification gate read against the clock (`purity`).
      'react-hooks/refs': 'off',
      'react-hooks/set-state-in-effect': 'off',
      'react-hooks/purity': 'off',
    },
  },
);
