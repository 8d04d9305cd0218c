// The browser step of the authorization code flow without a browser: a cookie jar,
// the sign-in form (CSRF token read from the HTML), the approve form (Allow/Deny),
// and the code exchange. One Transport interface, two implementations: fetch against
// a real server, and app.inject() against an in-process app.
import crypto from 'node:crypto';
import { freePort, startServer, stopAndRemove, type RunningServer } from './server.ts';
import { TEST_DATABASE_URL, freshPostgresUrl } from './database.ts';
import { bearerCall, type HttpAnswer } from './e2e-http.ts';

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  /** Path and query, e.g. "/oauth/authorize?state=abc". */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export type Transport = (req: HttpRequest) => Promise<HttpResponse>;

/** Requests to a real server; redirects are not followed. */
export function fetchTransport(baseUrl: string): Transport {
  return async (req) => {
    const res = await fetch(new URL(req.path, baseUrl), {
      method: req.method,
      headers: req.headers,
      body: req.body,
      redirect: 'manual',
    });
    const headers: Record<string, string | string[]> = {};
    res.headers.forEach((v, k) => {
      if (k !== 'set-cookie') headers[k] = v;
    });
    const cookies = res.headers.getSetCookie();
    if (cookies.length) headers['set-cookie'] = cookies;
    return { status: res.status, headers, body: await res.text() };
  };
}

interface Injectable {
  inject(opts: { method: 'GET' | 'POST'; url: string; headers?: Record<string, string>; payload?: string }): Promise<{
    statusCode: number;
    headers: Record<string, string | string[] | number | undefined>;
    body: string;
  }>;
}

/** Requests through app.inject() (remote address 127.0.0.1). */
export function injectTransport(app: Injectable): Transport {
  return async (req) => {
    const res = await app.inject({ method: req.method, url: req.path, headers: req.headers, payload: req.body });
    const headers: Record<string, string | string[] | undefined> = {};
    for (const [k, v] of Object.entries(res.headers)) headers[k] = typeof v === 'number' ? String(v) : v;
    return { status: res.statusCode, headers, body: res.body };
  };
}

export const header = (res: HttpResponse, name: string): string | undefined => {
  const v = res.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
};

/** A verifier of 43 unreserved characters and its S256 challenge (RFC 7636). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = crypto.randomBytes(32).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier, 'ascii').digest('base64url');
  return { verifier, challenge };
}

/** A state the service accepts: [a-z0-9]+. */
export const randomState = (): string => crypto.randomBytes(12).toString('hex');

/** The hidden inputs of the first form of an HTML page. */
export function hiddenFieldsOf(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  const decode = (s: string) =>
    s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) out[decode(m[1]!)] = decode(m[2]!);
  return out;
}

export function csrfOf(html: string): string {
  const csrf = hiddenFieldsOf(html).csrf;
  if (!csrf) throw new Error(`no csrf field in page:\n${html.slice(0, 500)}`);
  return csrf;
}

/** A user agent: a transport plus a cookie jar (name → value; attributes ignored). */
export class UserAgent {
  readonly cookies = new Map<string, string>();
  readonly transport: Transport;

  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** Raw Set-Cookie lines of the last response, for attribute checks. */
  lastSetCookie: string[] = [];

  async request(req: HttpRequest): Promise<HttpResponse> {
    const headers = { ...req.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await this.transport({ ...req, headers });
    const set = res.headers['set-cookie'];
    this.lastSetCookie = set === undefined ? [] : Array.isArray(set) ? set : [set];
    for (const line of this.lastSetCookie) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/;\s*max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  get(path: string): Promise<HttpResponse> {
    return this.request({ method: 'GET', path });
  }

  postForm(path: string, fields: Record<string, string | undefined>): Promise<HttpResponse> {
    const body = new URLSearchParams(
      Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined),
    ).toString();
    return this.request({ method: 'POST', path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  }
}

export interface AuthorizeOptions {
  email: string;
  password: string;
  redirectUri: string;
  state?: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
  decision?: 'allow' | 'deny';
}

export interface AuthorizeResult {
  /** The Location the approval (or denial) redirected to. */
  location: string;
  /** Its query parameters (code, state, error). */
  params: URLSearchParams;
  code: string | null;
  state: string;
  agent: UserAgent;
}

export function authorizePath(o: {
  redirectUri: string;
  state: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
}): string {
  const q = new URLSearchParams({ response_type: 'code', redirect_uri: o.redirectUri, state: o.state });
  if (o.codeChallenge) {
    q.set('code_challenge', o.codeChallenge);
    q.set('code_challenge_method', o.codeChallengeMethod ?? 'S256');
  }
  return `/oauth/authorize?${q}`;
}

const expectStatus = (res: HttpResponse, status: number, what: string) => {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status}\n${res.body.slice(0, 500)}`);
};

/** Signs a user agent in through GET /oauth/authorize and POST /oauth/login; answers the approve page. */
export async function signIn(agent: UserAgent, authorize: string, email: string, password: string): Promise<HttpResponse> {
  const page = await agent.get(authorize);
  expectStatus(page, 200, 'GET /oauth/authorize');
  const fields = hiddenFieldsOf(page.body);
  if (!page.body.includes('action="/oauth/login"')) return page; // already signed in
  const login = await agent.postForm('/oauth/login', { ...fields, email, password });
  expectStatus(login, 303, 'POST /oauth/login');
  const approve = await agent.get(header(login, 'location')!);
  expectStatus(approve, 200, 'GET /oauth/authorize after sign-in');
  return approve;
}

/**
 * The whole browser step: open the authorize address, sign in, press Allow (or Deny),
 * and answer where the service redirected to. `authorize` may be a full authorize
 * address (e.g. built by a client library); its path and query are used.
 */
export async function authorize(
  transport: Transport,
  o: AuthorizeOptions & { authorize?: string; agent?: UserAgent },
): Promise<AuthorizeResult> {
  const agent = o.agent ?? new UserAgent(transport);
  const state = o.state ?? randomState();
  let path = authorizePath({ ...o, state });
  if (o.authorize) {
    const u = new URL(o.authorize, 'http://placeholder');
    path = `${u.pathname}${u.search}`;
  }
  const approve = await signIn(agent, path, o.email, o.password);
  const fields = hiddenFieldsOf(approve.body);
  const decided = await agent.postForm('/oauth/authorize', { ...fields, decision: o.decision ?? 'allow' });
  expectStatus(decided, 303, 'POST /oauth/authorize');
  const location = header(decided, 'location')!;
  const params = new URL(location, 'http://placeholder').searchParams;
  return { location, params, code: params.get('code'), state: params.get('state') ?? '', agent };
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  user_id: string;
}

/** POST /oauth/token with a form body. */
export function tokenRequest(transport: Transport, fields: Record<string, string | undefined>): Promise<HttpResponse> {
  const body = new URLSearchParams(
    Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined),
  ).toString();
  return transport({
    method: 'POST',
    path: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
}

export const exchangeCode = (transport: Transport, code: string, redirectUri: string, verifier?: string) =>
  tokenRequest(transport, {
    grant_type: 'authorization_code',
    code,
    authorization_code: redirectUri,
    code_verifier: verifier,
  });

export const refresh = (transport: Transport, refreshToken: string) =>
  tokenRequest(transport, { grant_type: 'refresh_token', refresh_token: refreshToken });

/** Sign in, approve, exchange with PKCE: a token pair obtained the way an integrator would. */
export async function obtainTokens(
  transport: Transport,
  email: string,
  password: string,
  redirectUri = 'http://127.0.0.1:9/callback',
): Promise<TokenPair> {
  const { verifier, challenge } = pkcePair();
  const r = await authorize(transport, { email, password, redirectUri, codeChallenge: challenge });
  if (!r.code) throw new Error(`no code in ${r.location}`);
  const res = await exchangeCode(transport, r.code, redirectUri, verifier);
  expectStatus(res, 200, 'POST /oauth/token');
  return JSON.parse(res.body) as TokenPair;
}

/** GET with a bearer token. */
export const bearerGet = (transport: Transport, path: string, token: string) =>
  transport({ method: 'GET', path, headers: { authorization: `Bearer ${token}` } });

// ---------------------------------------------------------------------------------
// A real server for the e2e tests: SANDBOX=1, an operator token, a fresh database
// (PostgreSQL from TEST_DATABASE_URL when set, else PGlite under a temp DATA_DIR).

export const E2E_OPERATOR_TOKEN = 'e2e-operator-token-of-24-chars+';

export interface OAuthServer {
  url: string;
  http: Transport;
  server: RunningServer;
  /** The PostgreSQL database of this server (undefined on PGlite). */
  databaseUrl: string | undefined;
  /** An operator call; throws unless it answers 200. */
  operator<T = any>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T>;
  /** POST /_operator/seed; answers {users: [{email, id}], ...}. */
  seed(doc: unknown): Promise<any>;
  /** POST /_operator/clock {advanceSeconds}. */
  advanceClock(seconds: number): Promise<{ now: string; offsetSeconds: number }>;
  stop(): Promise<void>;
}

export interface OAuthServerOptions {
  postgres?: boolean;
  /** More settings of the service. */
  env?: Record<string, string>;
  /**
   * Signed blob URLs on another origin than the service's (BLOB_PUBLIC_URL): the same
   * server named `localhost` instead of `127.0.0.1`, as a browser sees two origins.
   */
  blobOrigin?: boolean;
}

export async function startOAuthServer(opts: OAuthServerOptions = {}): Promise<OAuthServer> {
  const usePostgres = opts.postgres ?? Boolean(TEST_DATABASE_URL);
  if (usePostgres && !TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const db = usePostgres ? await freshPostgresUrl(TEST_DATABASE_URL!) : undefined;
  const env: Record<string, string> = { OPERATOR_TOKEN: E2E_OPERATOR_TOKEN, SANDBOX: '1', ...opts.env };
  if (opts.blobOrigin) {
    const port = await freePort();
    Object.assign(env, { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, BLOB_PUBLIC_URL: `http://localhost:${port}` });
  }
  if (db) env.DATABASE_URL = db.url;
  let server: RunningServer;
  try {
    server = await startServer(env);
  } catch (e) {
    await db?.drop();
    throw e;
  }
  const http = fetchTransport(server.url);
  const operator = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await http({
      method,
      path: `/_operator${path}`,
      headers: {
        authorization: `Bearer ${E2E_OPERATOR_TOKEN}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${method} /_operator${path}: ${res.status} ${res.body}`);
    return JSON.parse(res.body);
  };
  return {
    url: server.url,
    http,
    server,
    databaseUrl: db?.url,
    operator,
    seed: (doc) => operator('POST', '/seed', doc),
    advanceClock: (seconds) => operator('POST', '/clock', { advanceSeconds: seconds }),
    stop: () => stopAndRemove(server, db),
  };
}

export type JsonResponse = HttpAnswer;

/**
 * Real HTTP calls to a started server as seeded users, with access tokens the operator
 * API issues (one per user, cached). `emailOf` maps a short name to the seeded e-mail.
 */
export function callsAs(server: OAuthServer, emailOf: (name: string) => string) {
  const tokens = new Map<string, string>();
  async function token(name: string): Promise<string> {
    let tk = tokens.get(name);
    if (!tk) tokens.set(name, (tk = (await server.operator<{ access_token: string }>('POST', '/tokens', { email: emailOf(name) })).access_token));
    return tk;
  }
  const api = async (name: string, method: string, path: string, body?: unknown): Promise<JsonResponse> =>
    bearerCall(server.url, await token(name), method, path, body);
  /** Forgets the cached tokens (after moving the clock past their expiry). */
  const forgetTokens = () => tokens.clear();
  return { token, api, forgetTokens };
}
