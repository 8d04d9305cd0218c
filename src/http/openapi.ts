// The service describes itself (CONTRACT §3): one generator over the route schemas,
// split into two OpenAPI 3.1 documents: API 2 with the token endpoints, and API 1.
// Each operation gets its description (what it does, the permission the code checks, its
// error codes) from the table of its API (api2/operation-docs.ts, api1/operation-docs.ts),
// and the answers every operation of its kind can give (401, 403, 429, 408, 413, 415)
// in its surface's error format. Each document has its docs page (swagger-ui), from which
// a person signs in (docs/security.md "The API docs pages").
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Services } from '../services.ts';
import { surfaceOf, type Surface } from './errors.ts';
import { API2_OPERATIONS } from './api2/operation-docs.ts';
import { API1_OPERATIONS } from './api1/operation-docs.ts';
import type { OperationDoc, OperationError, OperationTable } from './operation-docs.ts';
import { ERROR_CATALOGUE, operationTable } from '../modules/registries.ts';
import { API1_DOCS_PREFIX, API2_DOCS_PREFIX } from './docs-redirects.ts';

/** The Markdown description of an operation. */
function describeOperation(d: OperationDoc): string {
  const parts = [d.does];
  const permission = d.permission ?? (d.public ? 'none: a public operation, without an access token.' : 'none beyond a valid access token.');
  parts.push(`**Permission:** ${permission}`);
  if (d.errors.length) parts.push(`**Errors:** ${d.errors.map((e) => `\`${describeError(e)}\``).join(', ')}.`);
  return parts.join('\n\n');
}

/** "status code", and " (condition)" when given: the status is the catalogue's (its first). */
export function describeError(e: OperationError): string {
  const { code, when } = typeof e === 'string' ? { code: e, when: undefined } : e;
  return `${ERROR_CATALOGUE[code]!.status[0]} ${code}${when ? ` (${when})` : ''}`;
}

type Operation = Record<string, unknown> & {
  description?: string;
  security?: unknown[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
};
type Doc = Record<string, unknown> & { paths?: Record<string, Record<string, Operation>>; info?: Record<string, unknown> };

const isApi2Path = (p: string) => p.startsWith('/api/2/') || p.startsWith('/oauth/') || p.startsWith('/.well-known/');
// The connect jobs' own paths belong with API 1, which starts them.
const isApi1Path = (p: string) => (p.startsWith('/api/') && !p.startsWith('/api/2/')) || p.startsWith('/connect/');

export const API2_INFO = {
  title: 'Scanbase API 2',
  version: '2.0.0',
  description:
    'Reality-capture project service, API 2 (RFC 9457 errors, URN ids) and the OAuth 2 token service. ' +
    'Every operation needs `Authorization: Bearer <access token>` except the token endpoints; on the docs page, ' +
    '**Authorize** signs you in (authorization code with PKCE) and **Try it out** then sends the token.',
};
export const API1_INFO = {
  title: 'Scanbase API 1',
  version: '1.0.0',
  description:
    'Reality-capture project service, API 1 ({code, message} errors, API 1 ids) and its reports. ' +
    'Every operation needs `Authorization: Bearer <access token>` (the same tokens as API 2); on the docs page, ' +
    '**Authorize** signs you in and **Try it out** then sends the token.',
};

interface DocsPage {
  /** Where swagger-ui is served. */
  prefix: string;
  keep: (path: string) => boolean;
  info: Record<string, unknown>;
  /**
   * Its operation docs, assembled on first use, not at load: this file reaches the module
   * list (src/modules/registries.ts), which may still be loading when this file is.
   */
  table: () => OperationTable;
}

const once = <T>(f: () => T): (() => T) => {
  let v: T | undefined;
  return () => (v ??= f());
};

/** The two documents and their docs pages (CONTRACT §3: /api/2/docs; API 1's at /api/docs). */
const DOCS_PAGES: readonly DocsPage[] = [
  { prefix: API2_DOCS_PREFIX, keep: isApi2Path, info: API2_INFO, table: once(() => operationTable('api2', API2_OPERATIONS)) },
  { prefix: API1_DOCS_PREFIX, keep: isApi1Path, info: API1_INFO, table: once(() => operationTable('api1', API1_OPERATIONS)) },
];

/** The docs pages' sign-in redirects (in a leaf file, so the OAuth pages' helpers need not load this one). */
export { docsPageRedirects } from './docs-redirects.ts';

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

/** The error body of a surface (src/http/errors.ts failureBody), as a response's content. */
function errorContent(surface: Surface): Record<string, unknown> {
  if (surface === 'api1') {
    return {
      'application/json': {
        schema: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
      },
    };
  }
  if (surface === 'oauth') {
    return {
      'application/json': {
        schema: { type: 'object', required: ['error'], properties: { error: { type: 'string' }, error_description: { type: 'string' } } },
      },
    };
  }
  return {
    'application/problem+json': {
      schema: {
        type: 'object',
        required: ['status', 'title'],
        properties: {
          type: { type: 'string' },
          status: { type: 'integer' },
          title: { type: 'string' },
          detail: { type: 'string' },
          errorCode: { type: 'string' },
          errorValues: { type: 'object', additionalProperties: {} },
        },
      },
    },
  };
}

/** The answers an operation can give by its kind, that its route schema does not list. */
function commonAnswers(surface: Surface, op: Operation, needsPermission: boolean): Record<string, unknown> {
  const content = errorContent(surface);
  const answer = (description: string, extra: Record<string, unknown> = {}) => ({ description, content, ...extra });
  const out: Record<string, unknown> = {};
  const authenticated = !(Array.isArray(op.security) && op.security.length === 0);
  if (authenticated) {
    out['401'] = answer('`unauthorized`: no access token, or a malformed, expired or unknown one.');
    if (needsPermission) {
      out['403'] = answer(
        'The caller lacks a permission (`errorValues.requiredPermissions` lists the permissions needed, ' +
          'and `errorValues.grantedBy` the account roles that would grant them: our extension), ' +
          'or the object is out of reach (the codes are in the description).',
      );
    }
  }
  // The rate limits (src/http/rate-limit.ts) guard API 1 and API 2, not the token endpoints or the connect jobs' paths.
  if (surface === 'api1' || surface === 'api2') {
    out['429'] = answer('`too-many-requests`: the caller (user or client address) is over its rate limit; retry after `Retry-After` seconds.', {
      headers: { 'Retry-After': { description: 'Seconds until a request is accepted again', schema: { type: 'integer', minimum: 1 } } },
    });
  }
  if (op.requestBody !== undefined) {
    out['408'] = answer('`request-timeout`: the body did not arrive within BODY_TIMEOUT seconds of the request start; the connection is closed.');
    out['413'] = answer('`payload-too-large`: the body is larger than the operation accepts (1 MiB for JSON, 96 MiB for tag bodies, 64 KiB for forms).');
    out['415'] = answer('`unsupported-media-type`: the Content-Type is not one this operation reads (`errorValues.expected` lists them).');
  }
  return out;
}

/** The document of one API: its paths, every operation described and its common answers listed. */
function document(full: Doc, page: DocsPage): Doc {
  const paths: Record<string, Record<string, Operation>> = {};
  for (const [path, item] of Object.entries(full.paths ?? {})) {
    if (!page.keep(path)) continue;
    const ops: Record<string, Operation> = {};
    for (const [method, value] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) {
        ops[method] = value;
        continue;
      }
      const entry = page.table()[`${method.toUpperCase()} ${path}`];
      const op: Operation = { ...value };
      if (entry) op.description = describeOperation(entry);
      const surface = surfaceOf(path);
      op.responses = { ...commonAnswers(surface, op, entry?.permission !== undefined), ...(op.responses ?? {}) };
      ops[method] = op;
    }
    paths[path] = ops;
  }
  return { ...full, info: { ...full.info, ...page.info }, paths };
}

/**
 * Served to the docs pages after swagger-initializer.js, before window.onload (a file, not
 * an inline script: the pages' CSP allows scripts from 'self' only). swagger-ui sends a
 * base64 `state` (`btoa(new Date())`) where GET /oauth/authorize requires [a-z0-9]+: this
 * plugin replaces it, in the authorization address and in what the redirect page compares,
 * with 32 lowercase hex characters from crypto.getRandomValues.
 */
const OAUTH_STATE_SCRIPT = `'use strict';
(function () {
  var bundle = window.SwaggerUIBundle;
  function lowercaseState() {
    var bytes = window.crypto.getRandomValues(new Uint8Array(16));
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? '0' : '') + b.toString(16); }).join('');
  }
  function LowercaseOAuthState() {
    return {
      statePlugins: {
        auth: {
          wrapActions: {
            authPopup: function (original) {
              return function (url, redirect) {
                var state = lowercaseState();
                var address = new URL(url, window.location.href);
                address.searchParams.set('state', state);
                return original(address.toString(), Object.assign({}, redirect, { state: state }));
              };
            },
          },
        },
      },
    };
  }
  function SwaggerUIWithState(config) {
    return bundle(Object.assign({}, config, { plugins: (config.plugins || []).concat([LowercaseOAuthState]) }));
  }
  Object.assign(SwaggerUIWithState, bundle);
  window.SwaggerUIBundle = SwaggerUIWithState;
})();
`;

/**
 * The docs pages' CSP: scripts and everything else from the service's origin only (no
 * inline script, no external host). upgrade-insecure-requests only when PUBLIC_URL is
 * https: on an http deployment it would turn Try it out's calls into https ones that fail.
 */
const docsPageCsp = (publicUrl: string) =>
  "default-src 'self'; base-uri 'self'; font-src 'self' data:; frame-ancestors 'self'; img-src 'self' data:; " +
  "object-src 'none'; script-src 'self'; script-src-attr 'none'; style-src 'self'; form-action 'self'" +
  (publicUrl.startsWith('https:') ? '; upgrade-insecure-requests' : '');

export async function registerOpenApi(app: FastifyInstance, core: Pick<Services, 'config'>): Promise<void> {
  const base = core.config.publicUrl;
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: API2_INFO,
      servers: [{ url: base }],
      tags: [{ name: 'BETA', description: 'Operations that may change later' }],
      components: {
        securitySchemes: {
          oauth2: {
            type: 'oauth2',
            description:
              'Authorization code with PKCE (S256). On the docs pages, Authorize opens the sign-in page in a window; leave client_id as it is, no secret.',
            flows: {
              authorizationCode: {
                authorizationUrl: `${base}/oauth/authorize`,
                tokenUrl: `${base}/oauth/token`,
                refreshUrl: `${base}/oauth/token`,
                scopes: {},
              },
            },
          },
        },
      },
      security: [{ oauth2: [] }],
    },
  });

  const built = new Map<DocsPage, Doc>();
  const documentOf = (page: DocsPage): Doc => {
    let doc = built.get(page);
    if (!doc) built.set(page, (doc = document(app.swagger() as unknown as Doc, page)));
    return doc;
  };

  for (const page of DOCS_PAGES) {
    app.get(page.prefix.replace(/\/docs$/, '/openapi.json'), { schema: { hide: true } }, async () => documentOf(page));
    // Each page in a context of its own: @fastify/swagger-ui decorates its context.
    await app.register(async (scope) => {
      await scope.register(swaggerUi, {
        routePrefix: page.prefix,
        staticCSP: docsPageCsp(base),
        transformSpecificationClone: false,
        transformSpecification: () => documentOf(page),
        // Tags start folded: with every operation of API 2 unfolded (docExpansion 'list', some
        // 140 operations) swagger-ui stopped rendering after the first tag in Chromium.
        uiConfig: { docExpansion: 'none', deepLinking: true, persistAuthorization: false },
        initOAuth: { clientId: 'scanbase-docs', usePkceWithAuthorizationCodeGrant: true },
        theme: { title: String(page.info.title), js: [{ filename: 'oauth-state.js', content: OAUTH_STATE_SCRIPT }] },
      });
    });
  }
}
