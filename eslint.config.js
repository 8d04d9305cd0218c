// Lint: typescript-eslint's recommended rules, and the dependency rule of
// ARCHITECTURE.md: src/core imports only src/core and Node's standard library; the web
// console (console/) is a client of the public API only and never imports the service.
// Feature modules (docs/architecture.md "Modules") are imported through their index.ts
// only, from other modules, src/http and the wiring; src/http never touches the store.
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The shared kernel every module may import file by file: ports, ids, crypto (pure
// digests), permissions (the catalogue, the pure engine, the authorizer), events and cache
// (the one LRU and the node's registry of caches).
const SHARED = '(ports|ids|crypto|permissions|events|cache)';
const MODULE_MESSAGE =
  'Import a kernel folder through its index.ts, not its internal files; only ' +
  'ports, ids, crypto, permissions, events and cache are imported file by file (docs/architecture.md "Modules").';
const throughIndex = (prefix) => ({ regex: `${prefix}(?!${SHARED}/)[^/]+/(?!index\\.ts$)[^/]+$`, message: MODULE_MESSAGE });

// The vertical slices under src/modules/<m>/ (docs/architecture.md "Adding a module"): the
// rule resolves each import against the importing file, so no relative spelling slips by.
//  - core/: the module's own core, the shared kernel of src/core (ports, ids, crypto,
//    permissions, events, cache, errors.ts, error-codes.ts, modules.ts, promises.ts), another module
//    through its public face (src/modules/<other>/index.ts) and
//    node:*; no framework, driver, SDK, surface, wiring, nor its own postgres/http/adapters.
//  - index.ts (the public face): its own core only.
//  - postgres/, adapters/, http/: never another module's insides (its public face only), never
//    the wiring; postgres/ and adapters/ never a surface, http/ never a driver adapter (but the
//    files module's /_blobs routes, the local-disk store's signed URLs, use that store).
//  - outside a module, only its module.ts (the module list, tests) and index.ts are imported;
//    another module's http/ may also import its http/index.ts (the schemas and presenters of
//    what both answer with).
const SRC = path.resolve(import.meta.dirname, 'src');
const KERNEL = /^core\/((ports|ids|crypto|permissions|events|cache)\/|(errors|error-codes|modules|promises)\.ts$)/;
// src/config.ts is wiring too: it assembles the modules' settings from the module list (a module
// reads its own with src/kernel-config.ts's value readers, and the kernel's through its needs).
const WIRING = /^(compose|module-list|config|main|serve|admin|background)\.ts$/;

/** Where `rel` (a path under src/) is: its module and part, if under src/modules/<m>/. */
function placeOf(rel) {
  const m = /^modules\/([^/]+)\/(?:(core|postgres|http|adapters)\/|(module\.ts|index\.ts|settings\.ts)$)/.exec(rel);
  return m ? { module: m[1], part: m[2] ?? m[3] } : null;
}

/** Why `file` may not import `source`, or null. */
export function moduleBoundaryViolation(file, source) {
  const relFile = path.relative(SRC, file).split(path.sep).join('/');
  if (relFile.startsWith('..')) return null;
  const from = placeOf(relFile);
  const isRelative = source.startsWith('.');
  const target = isRelative ? path.relative(SRC, path.resolve(path.dirname(file), source)).split(path.sep).join('/') : null;
  const to = target ? placeOf(target) : null;
  // Anyone outside a module reaches it through module.ts (its contract) or index.ts (its public face).
  if (to && (!from || from.module !== to.module)) {
    const face = to.part === 'index.ts' || (!from && to.part === 'module.ts') || (from?.part === 'http' && target === `modules/${to.module}/http/index.ts`);
    if (!face) return `import the module ${to.module} through its index.ts (its public face), not ${target}`;
  }
  if (!from) return null;
  if (from.part === 'core' || from.part === 'index.ts') {
    if (!isRelative) return source.startsWith('node:') ? null : `a module's core imports no framework, driver or SDK (${source})`;
    if (to && to.module === from.module) {
      return to.part === 'core' ? null : `a module's core imports only its own core, not its ${to.part}`;
    }
    if (to) return null; // another module's index.ts (checked above)
    if (KERNEL.test(target) || /^core\/[^/]+\/index\.ts$/.test(target)) return from.part === 'index.ts' ? `a module's index.ts exports its own core only` : null;
    return `a module's core imports its own core, the shared kernel (src/core ports, ids, crypto, permissions, events, errors) and public faces only, not src/${target}`;
  }
  if (target && WIRING.test(target)) return `a module never imports the wiring (src/${target})`;
  if (target && (from.part === 'postgres' || from.part === 'adapters') && /^http\//.test(target)) return `a module's ${from.part} never imports a surface (src/${target})`;
  // One exception: the files module's /_blobs routes are the local-disk store's signed URLs (they receive and serve its objects).
  const localDiskUrls = from.module === 'files' && relFile === 'modules/files/http/blobs.ts' && target === 'adapters/storage/local-disk.ts';
  if (target && from.part === 'http' && /^adapters\//.test(target) && !localDiskUrls) return `a module's http calls use cases: no adapter (src/${target})`;
  if (to && to.module === from.module && from.part === 'http' && (to.part === 'postgres' || to.part === 'adapters')) return `a module's http calls use cases: not its ${to.part}`;
  return null;
}

const layering = {
  rules: {
    'module-boundaries': {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const check = (node) => {
          if (!node.source || typeof node.source.value !== 'string') return;
          const why = moduleBoundaryViolation(context.filename, node.source.value);
          if (why) context.report({ node: node.source, message: `${why} (docs/architecture.md "Adding a module").` });
        };
        return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check, TSImportType: (node) => check({ source: node.argument?.literal ?? node.argument }) };
      },
    },
  },
};

export default tseslint.config(
  // src/pointclouds/laz/assembly: AssemblyScript (WebAssembly's types and builtins), checked by its compiler.
  { ignores: ['node_modules/**', 'data/**', '.tmp/**', 'console/dist/**', 'packages/*/dist/**', 'src/pointclouds/laz/assembly/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // A module's error codes merge into the kernel's catalogue type as `interface
      // ModuleErrorCodes extends <its rows' type> {}` (src/modules/<m>/core/errors.ts).
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
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
    files: ['src/**/*.ts'],
    plugins: { layering },
    rules: { 'layering/module-boundaries': 'error' },
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
            {
              regex: '(^|/)(kernel-)?config\\.ts$',
              message: 'The kernel (src/core) reads no setting: a module names the settings it needs in its needs (config: { … }), and the wiring hands them over.',
            },
            {
              regex: '(^|/)modules/',
              message: 'The kernel (src/core) imports no module of src/modules: a module adds to a kernel port by declaration merging (JobFinishRepos, ModuleEventData, ModuleErrorCodes).',
            },
            // From src/core/<folder>/x.ts another folder is ../<other>/….
            throughIndex('^\\.\\./'),
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
    // The HTTP layer receives the face (src/services.ts), never the wiring: the composition is
    // not imported by what it composes (docs/architecture.md "The HTTP layer's face").
    files: ['src/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            // The kernel through its one file for the HTTP layer (src/core/http-face.ts), the use
            // cases through src/services.ts: nothing else of src/core.
            {
              regex: '(^|/)core/(?!http-face\\.ts$)',
              message: 'src/http imports the kernel through src/core/http-face.ts only (and the use cases through src/services.ts): add what it needs there.',
            },
            {
              regex: '(^|/)(compose|module-list|config|main|serve|admin|background|probes|seed-file)\\.ts$',
              message: 'src/http receives the face (src/services.ts: Services, HttpServices), never the wiring (the settings it reads: the types of src/kernel-config.ts, or Services[\'config\']).',
            },
          ],
        },
      ],
    },
  },
  {
    // The HTTP layer receives use cases only: no repository, no store (issue 16).
    files: ['src/http/**/*.ts', 'src/modules/*/http/**/*.ts'],
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
    // Each route file is typed by what it calls (`Pick<Services, 'accounts' | 'config'>`, or a
    // narrower interface); only the API plugins and the routes table hand the whole face on.
    files: ['src/http/**/*.ts', 'src/modules/*/http/**/*.ts'],
    ignores: ['src/http/api1/routes.ts', 'src/http/api2/routes.ts', 'src/http/route-modules.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^(store|repos)$/]',
          message: 'src/http calls use cases only; it never reads the store or repositories (add a use case to the module owning the data).',
        },
        {
          selector: 'Identifier > TSTypeAnnotation > TSTypeReference[typeName.name="Services"]',
          message: 'Type a route file by the use cases it calls: Pick<Services, …> of them (docs/architecture.md "The HTTP layer receives use cases only").',
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
