// A fake Konekt and a fake Autodesk in one real HTTP server on a loopback port, speaking the
// protocols docs/integrations.md describes: Konekt's hub API (a bearer token per hub) and
// Autodesk's OAuth 2.0 code flow with its user-info and hubs/projects reads. It records every
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
  };
  /** Every request: method, path with query, headers, body. */
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
  /** When set, every request is answered with this status (a third party that is down). */
  failWith: number | null;
  close(): Promise<void>;
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

export async function startFakeIntegrations(): Promise<FakeIntegrations> {
  const fake: FakeIntegrations = {
    url: '',
    hubs: [],
    autodesk: { clientId: 'scanbase-app', clientSecret: 'app-secret-1', codes: new Map(), users: new Map(), hubs: [] },
    requests: [],
    failWith: null,
    close: async () => undefined,
  };
  let nextKonektProject = 9000;

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

      // Autodesk.
      const a = fake.autodesk;
      if (url.pathname === '/authentication/v2/token' && req.method === 'POST') {
        const basic = Buffer.from(`${a.clientId}:${a.clientSecret}`).toString('base64');
        if (req.headers.authorization !== `Basic ${basic}`) return json(res, 401, { error: 'invalid_client' });
        const form = new URLSearchParams(body);
        const token = a.codes.get(form.get('code') ?? '');
        if (form.get('grant_type') !== 'authorization_code' || !token) return json(res, 400, { error: 'invalid_grant' });
        a.codes.delete(form.get('code')!);
        return json(res, 200, { access_token: token, refresh_token: `refresh-${token}`, expires_in: 3600, token_type: 'Bearer' });
      }
      const user = a.users.get(bearer);
      if (url.pathname === '/userinfo') return user ? json(res, 200, user) : json(res, 401, { error: 'invalid token' });
      if (url.pathname === '/project/v1/hubs') {
        return user ? json(res, 200, { data: a.hubs.map((h) => ({ id: h.id, type: 'hubs', attributes: { name: h.name } })) }) : json(res, 401, {});
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
