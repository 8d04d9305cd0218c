// A real OpenID Connect identity provider for the tests: oidc-provider (panva) on loopback,
// with its development login and consent pages (any login name signs in as that user; the
// claims come from `users`, which a test may change between sign-ins). `foreignJwks`: the IdP
// publishes another key than the one it signs with (an ID token whose signature fails).
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Claims by login name (the ID token's sub). */
  users: Map<string, Record<string, unknown>>;
  close(): Promise<void>;
}

async function signingJwk(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return { priv: { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' }, pub: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

export async function startTestIdp(o: { redirectUri: string; foreignJwks?: boolean }): Promise<TestIdp> {
  const users = new Map<string, Record<string, unknown>>();
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://localhost:${(server.address() as AddressInfo).port}`;
  const clientId = 'scanbase';
  const clientSecret = 'test-idp-client-secret-5d1e0c';
  const key = await signingJwk('idp-key-1');
  const foreign = await signingJwk('idp-key-1');
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [o.redirectUri], response_types: ['code'], grant_types: ['authorization_code'] }],
    jwks: { keys: [key.priv] },
    cookies: { keys: ['test-idp-cookie-key-of-some-length'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'], groups: ['groups'] },
    // The scope's claims in the ID token itself (the relying party reads only the ID token).
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    findAccount: async (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: async () => ({ sub: id, ...(users.get(id) ?? {}) }),
    }),
  });
  const handler = provider.callback();
  server.on('request', (req, res) => {
    if (o.foreignJwks && req.url === '/jwks') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [foreign.pub] }));
      return;
    }
    handler(req, res);
  });
  return {
    issuer, clientId, clientSecret, users,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** An IdP that is down the worst way: it accepts connections and never answers. */
export async function startSilentIdp(): Promise<{ issuer: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    issuer: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
