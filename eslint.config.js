// Lint: typescript-eslint's recommended rules, and the dependency rule of
// ARCHITECTURE.md: src/core imports only src/core and Node's standard library; the web
// console (console/) is a client of the public API only and never imports the service.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', '.tmp/**', 'console/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly' } },
  },
  {
    // The client packages stand alone: no reaching into the service (or another package's
    // files: a sibling is imported by its name, e.g. @scanbase/sdk/node).
    files: ['packages/*/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./){3,}', message: 'packages/*/src imports only its own package, node:* and its dependencies.' }] },
      ],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!node:|\\.{1,2}/).*',
              message: 'src/core imports only src/core and the standard library (node:*): no framework, driver or SDK.',
            },
            {
              regex: '(^|/)(http|adapters)(/|$)',
              message: 'src/core must not import src/http or src/adapters (http → core ← adapters).',
            },
            { regex: '\\.\\./\\.\\./\\.\\./', message: 'src/core must not reach outside src/core.' },
          ],
        },
      ],
    },
  },
  {
    files: ['console/**/*.ts', 'console/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // The SDK's generated API types are the one exception (console/src/types.ts, type-only).
              regex: '^(?!(\\.\\./)+packages/sdk/src/generated/)(.*/)?src/|^node:',
              message: 'The console is a browser client of the public API: it never imports the service (src/) or Node modules.',
            },
          ],
        },
      ],
    },
  },
);
