// Lint: typescript-eslint's recommended rules, and the dependency rule of
// ARCHITECTURE.md: src/core imports only src/core and Node's standard library; the web
// console (console/) is a client of the public API only and never imports the service.
// Feature modules (docs/architecture.md "Modules") are imported through their index.ts
// only, from other modules, src/http and the wiring; src/http never touches the store.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The shared kernel every module may import file by file: ports, ids, crypto (pure
// digests), permissions (the catalogue, the pure engine, the authorizer) and events.
const SHARED = '(ports|ids|crypto|permissions|events)';
const MODULE_MESSAGE =
  'Import a feature module through its index.ts (src/core/<module>/index.ts), not its internal files; only ' +
  'ports, ids, crypto, permissions and events are imported file by file (docs/architecture.md "Modules").';
const throughIndex = (prefix) => ({ regex: `${prefix}(?!${SHARED}/)[^/]+/(?!index\\.ts$)[^/]+$`, message: MODULE_MESSAGE });

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', '.tmp/**', 'console/dist/**', 'packages/*/dist/**'] },
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
            // From src/core/<module>/x.ts another module is ../<other>/….
            throughIndex('^\\.\\./'),
          ],
        },
      ],
    },
  },
  {
    // A module's core under src/modules/<m>/core holds to the core's rule: no framework, driver,
    // surface or adapter (its SQL is in ../postgres, its routes in ../http).
    files: ['src/modules/*/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!node:|\\.{1,2}/).*', message: 'A module core imports only src/core, its module and the standard library (node:*).' },
            { regex: '(^|/)(http|adapters|postgres)(/|$)', message: 'A module core must not import src/http, src/adapters or its own postgres/http parts.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/http/**/*.ts', 'src/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [throughIndex('(^|/)core/')] }],
    },
  },
  {
    // The HTTP layer receives use cases only: no repository, no store (issue 16).
    files: ['src/http/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^(store|repos)$/]',
          message: 'src/http calls use cases only; it never reads the store or repositories (add a use case to the module owning the data).',
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
