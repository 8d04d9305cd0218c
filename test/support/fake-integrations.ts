// A fake Konekt and a fake Autodesk in one real HTTP server on a loopback port, speaking the
// protocols docs/integrations.md describes: Konekt's hub API (a bearer token per hub) and
// Autodesk's OAuth 2.0 code flow (and its single-use refresh tokens) with its user-info and
// hubs/projects reads, and each one's issues (the integration links' batch). It records every
// request, so a test can check what the service sent (tokens, the client's Basic credentials).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeHub {
  token: string;
  id: string;
  name: string;
  beta: boolean;
  projects: { id: string; name: string }[];
}

export interface FakeIntegrations {
  url: string;
  /** Konekt's hubs by token. */
  hubs: FakeHub[];
  /** Autodesk: the application's credentials, the codes it will accept (code → access token) and the user behind each access token. */
  autodesk: {
    clientId: string;
    clientSecret: string;
    codes: Map<string, string>;
    users: Map<string, { email: string; preferred_username: string; given_name: string; family_name: string }>;
    hubs: { id: string; name: string; projects: { id: string; name: string }[] }[];
    /** Refresh token → the user's email; each is used once (a refresh answers the next one). */
    refreshTokens: Map<string, string>;
    /**
     * Who signs in at the fake's sign-in page (GET /authentication/v2/authorize, a browser's
     * stop): sent back to `redirect_uri` with a code for this access token; null: the person
     * refuses (error=access_denied).
     */
    signIn: { accessToken: string; email: string } | null;
  };
  /** Issues created (Konekt: `project` is the Konekt project id; Autodesk: the Issues API's project id). One per idempotency key. */
  issues: FakeIssue[];
  /** Answers to the next issue creations, in order, before the normal one (a status: that answer). */
  issueFailures: number[];
  /** Every request: method, path with query, headers, body. */
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
  /** When set, every request is answered with this status (a third party that is down). */
  failWith: number | null;
  close(): Promise<void>;
}

export interface FakeIssue {
  system: 'konekt' | 'autodesk';
  id: string;
  project: string;
  title: string;
  description: string;
  key: string;
  /** The bearer token it was created with. */
  token: string;
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

export async function startFakeIntegrations(): Promise<FakeIntegrations> {
  const fake: FakeIntegrations = {
    url: '',
    hubs: [],
    autodesk: { clientId: 'scanbase-app', clientSecret: 'app-secret-1', codes: new Map(), users: new Map(), hubs: [], refreshTokens: new Map(), signIn: null },
    issues: [],
    issueFailures: [],
    requests: [],
    failWith: null,
    close: async () => undefined,
  };
  let nextKonektProject = 9000;
  let nextIssue = 1;
  let nextAccess = 1;
  /** An issue as a third party that honours Idempotency-Key creates it: once per key. */
  const createIssue = (res: http.ServerResponse, system: FakeIssue['system'], project: string, body: string, key: string, token: string) => {
    const failure = fake.issueFailures.shift();
    if (failure) return json(res, failure, { error: 'failure asked by the test' });
    const again = fake.issues.find((i) => i.system === system && i.key === key && key !== '');
    if (again) return json(res, 200, { id: again.id });
    const { title, description } = JSON.parse(body) as { title: string; description: string };
    const issue: FakeIssue = { system, id: system === 'konekt' ? String(nextIssue++) : `issue-${nextIssue++}`, project, title, description, key, token };
    fake.issues.push(issue);
    return json(res, 201, system === 'konekt' ? { id: Number(issue.id) } : { id: issue.id, title, status: 'open' });
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      fake.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (fake.failWith) return json(res, fake.failWith, { error: 'down' });
      const url = new URL(req.url ?? '/', fake.url);
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';

      // Konekt.
      const hub = fake.hubs.find((h) => h.token === bearer);
      if (url.pathname === '/v1/hub' && req.method === 'GET') {
        return hub ? json(res, 200, { id: hub.id, name: hub.name, beta: hub.beta, projects: hub.projects }) : json(res, 401, { error: 'invalid token' });
      }
      if (url.pathname === '/v1/hub/projects' && req.method === 'POST') {
        if (!hub) return json(res, 401, { error: 'invalid token' });
        const project = { id: String(nextKonektProject++), name: (JSON.parse(body) as { name: string }).name };
        hub.projects.push(project);
        return json(res, 201, { id: Number(project.id) });
      }
      const konektIssues = /^\/v1\/hub\/projects\/(\d+)\/issues$/.exec(url.pathname);
      if (konektIssues && req.method === 'POST') {
        if (!hub) return json(res, 401, { error: 'invalid token' });
        if (!hub.projects.some((p) => p.id === konektIssues[1])) return json(res, 404, { error: 'no such project' });
        return createIssue(res, 'konekt', konektIssues[1]!, body, String(req.headers['idempotency-key'] ?? ''), bearer);
      }

      // Autodesk.
      const a = fake.autodesk;
      if (url.pathname === '/authentication/v2/authorize' && req.method === 'GET') {
        const back = new URL(url.searchParams.get('redirect_uri') ?? '');
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        if (url.searchParams.get('client_id') !== a.clientId || !a.signIn) back.searchParams.set('error', 'access_denied');
        else {
          const code = `code-${Math.random().toString(36).slice(2)}`;
          a.codes.set(code, a.signIn.accessToken);
          a.users.set(a.signIn.accessToken, { email: a.signIn.email, preferred_username: a.signIn.email.split('@')[0]!, given_name: 'A', family_name: 'User' });
          back.searchParams.set('code', code);
        }
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      if (url.pathname === '/authentication/v2/token' && req.method === 'POST') {
        const basic = Buffer.from(`${a.clientId}:${a.clientSecret}`).toString('base64');
        if (req.headers.authorization !== `Basic ${basic}`) return json(res, 401, { error: 'invalid_client' });
        const form = new URLSearchParams(body);
        if (form.get('grant_type') === 'refresh_token') {
          const email = a.refreshTokens.get(form.get('refresh_token') ?? '');
          const user = [...a.users.values()].find((u) => u.email === email);
          if (!email || !user) return json(res, 400, { error: 'invalid_grant' });
          a.refreshTokens.delete(form.get('refresh_token')!);
          const access = `autodesk-access-renewed-${nextAccess++}`;
          a.users.set(access, user);
          a.refreshTokens.set(`refresh-${access}`, email);
          return json(res, 200, { access_token: access, refresh_token: `refresh-${access}`, expires_in: 3600, token_type: 'Bearer' });
        }
        const token = a.codes.get(form.get('code') ?? '');
        if (form.get('grant_type') !== 'authorization_code' || !token) return json(res, 400, { error: 'invalid_grant' });
        a.codes.delete(form.get('code')!);
        const email = a.users.get(token)?.email;
        if (email) a.refreshTokens.set(`refresh-${token}`, email);
        return json(res, 200, { access_token: token, refresh_token: `refresh-${token}`, expires_in: 3600, token_type: 'Bearer' });
      }
      const user = a.users.get(bearer);
      if (url.pathname === '/userinfo') return user ? json(res, 200, user) : json(res, 401, { error: 'invalid token' });
      if (url.pathname === '/project/v1/hubs') {
        return user ? json(res, 200, { data: a.hubs.map((h) => ({ id: h.id, type: 'hubs', attributes: { name: h.name } })) }) : json(res, 401, {});
      }
      const issues = /^\/construction\/issues\/v1\/projects\/([^/]+)\/issues$/.exec(url.pathname);
      if (issues && req.method === 'POST') {
        if (!user) return json(res, 401, { error: 'invalid token' });
        return createIssue(res, 'autodesk', decodeURIComponent(issues[1]!), body, String(req.headers['idempotency-key'] ?? ''), bearer);
      }
      const projects = /^\/project\/v1\/hubs\/([^/]+)\/projects$/.exec(url.pathname);
      if (projects) {
        const h = a.hubs.find((x) => x.id === decodeURIComponent(projects[1]!));
        if (!user || !h) return json(res, user ? 404 : 401, {});
        return json(res, 200, { data: h.projects.map((p) => ({ id: p.id, type: 'projects', attributes: { name: p.name } })) });
      }
      return json(res, 404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return fake;
}

/**
 * Connects the caller to the fake Autodesk as a person would: the sign-in address, Autodesk's
 * answer with a code for `accessToken` (the fake's user `email`), the service's callback.
 */
export async function connectToAutodesk(
  fake: FakeIntegrations,
  inject: (url: string) => Promise<{ statusCode: number; body: string }>,
  call: (method: 'GET', url: string) => Promise<{ status: number; headers: Record<string, unknown> }>,
  accessToken: string,
  email: string,
): Promise<void> {
  const start = await call('GET', `/api/2/integrations/autodesk/connection/url?redirectUri=${encodeURIComponent('https://app.example/done')}`);
  if (start.status !== 302) throw new Error(`the Autodesk sign-in did not start: ${start.status}`);
  const state = new URL(String(start.headers.location)).searchParams.get('state');
  const code = `code-for-${accessToken}`;
  fake.autodesk.codes.set(code, accessToken);
  fake.autodesk.users.set(accessToken, { email, preferred_username: email.split('@')[0]!, given_name: 'A', family_name: 'User' });
  const back = await inject(`/integrations/autodesk/callback?code=${code}&state=${state}`);
  if (back.statusCode !== 302) throw new Error(`the Autodesk callback answered ${back.statusCode}: ${back.body}`);
}
