// Where the API docs pages are served and the redirect addresses of their sign-in. A leaf (no
// imports): the OAuth pages' helpers (src/http/oauth/page-helpers.ts) need the addresses, and
// src/http/openapi.ts, which serves the pages, reaches the module list (src/module-list.ts)
// that a module's pages are loaded from.

/** Where swagger-ui is served: API 2's document and API 1's (CONTRACT §3). */
export const API2_DOCS_PREFIX = '/api/2/docs';
export const API1_DOCS_PREFIX = '/api/docs';

/** Where @fastify/swagger-ui serves swagger-ui's oauth2-redirect page under its prefix. */
const OAUTH2_REDIRECT = '/static/oauth2-redirect.html';

/**
 * The redirect addresses of the docs pages' sign-in: exact addresses on PUBLIC_URL, the
 * only ones besides localhost, 127.0.0.1 and "/" that GET /oauth/authorize accepts.
 */
export const docsPageRedirects = (publicUrl: string): string[] =>
  [API2_DOCS_PREFIX, API1_DOCS_PREFIX].map((prefix) => `${publicUrl}${prefix}${OAUTH2_REDIRECT}`);
