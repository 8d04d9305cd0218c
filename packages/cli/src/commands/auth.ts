// login, logout, whoami, token.
import { spawn } from 'node:child_process';
import { Command } from 'commander';
import { refreshTokens, signInWithLoopback, toStored, tokenIssuer, type StoredTokens, type TokenResponse } from '@scanbase/sdk/node';
import { contextOf, type Context } from '../context.ts';
import { UsageError } from '../exit-codes.ts';
import { DEFAULT_BASE_URL, normalBaseUrl } from '../profiles.ts';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

/**
 * --with-token: a token pair as /oauth/token answers it (JSON), or a bare refresh token (spent
 * for a fresh pair). The server: `baseUrl` (--base-url) when given, else the pair's own
 * issuer (the access token's `iss`: the service's PUBLIC_URL), else the profile's; with none
 * of them (a bare refresh token on a new profile) a usage error, never a guess.
 */
export async function tokensFromText(
  baseUrl: string | undefined, text: string, o: { profileServer?: string; fetch?: typeof fetch } = {},
): Promise<StoredTokens> {
  if (!text) throw new UsageError('--with-token: nothing on standard input');
  if (text.startsWith('{')) {
    let t: Partial<TokenResponse>;
    try {
      t = JSON.parse(text) as Partial<TokenResponse>;
    } catch (e) {
      throw new UsageError(`--with-token: not JSON: ${(e as Error).message}`);
    }
    const missing = (['access_token', 'refresh_token', 'expires_in', 'user_id'] as const).filter((k) => t[k] === undefined);
    if (missing.length) throw new UsageError(`--with-token: the token pair lacks ${missing.join(', ')}`);
    const issuer = tokenIssuer(t.access_token!);
    const server = baseUrl ?? (issuer ? normalBaseUrl(issuer) : undefined) ?? o.profileServer;
    if (!server) throw new UsageError('--with-token: the access token names no issuer: give the server with --base-url');
    return toStored(server, t as TokenResponse);
  }
  if (/\s/.test(text)) throw new UsageError('--with-token: expected one refresh token or a JSON token pair');
  const server = baseUrl ?? o.profileServer;
  if (!server) throw new UsageError('--with-token: a bare refresh token does not say which server issued it: give --base-url');
  return toStored(server, await refreshTokens(server, text, o.fetch));
}

/** Opens a URL in the user's browser: $BROWSER, else the platform's opener. Answers false when none could start. */
function openBrowser(url: string): Promise<boolean> {
  const [cmd, ...args] = process.env.BROWSER
    ? [process.env.BROWSER, url]
    : process.platform === 'darwin' ? ['open', url] : process.platform === 'win32' ? ['cmd', '/c', 'start', '""', url] : ['xdg-open', url];
  return new Promise((resolve) => {
    const child = spawn(cmd!, args, { stdio: 'ignore', detached: true });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

async function login(ctx: Context, o: { browser: boolean; withToken?: boolean; port?: string }) {
  const current = await ctx.store.read();
  let tokens: StoredTokens;
  if (o.withToken) tokens = await tokensFromText(ctx.baseUrlOption, await readStdin(), { profileServer: current?.server, fetch: ctx.timedFetch });
  else {
    const baseUrl = ctx.baseUrlOption ?? current?.server ?? DEFAULT_BASE_URL;
    const port = o.port === undefined ? 0 : Number(o.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`bad --port: ${o.port}`);
    tokens = await signInWithLoopback({
      baseUrl,
      port,
      fetch: ctx.timedFetch,
      open: async (url) => {
        // The address goes to standard error (standard output is for results), as gh does.
        if (o.browser && (await openBrowser(url))) process.stderr.write(`Opening the browser to sign in; if it did not open, visit:\n${url}\n`);
        else process.stderr.write(`Open this address in a browser to sign in:\n${url}\n`);
      },
    });
  }
  await ctx.store.write(tokens);
  ctx.out.result({ profile: ctx.profile, server: tokens.server, userId: tokens.userId });
}

export function authCommands(): Command[] {
  const loginCmd = new Command('login')
    .description('sign in: the browser (PKCE, loopback redirect), or a token pair on standard input')
    .option('--no-browser', 'do not open a browser: print the address and wait for the redirect')
    .option('--with-token', 'read a token pair (JSON, as /oauth/token answers; the server is its issuer unless --base-url says) or a bare refresh token (with --base-url) from standard input')
    .option('--port <n>', 'the loopback listener\'s port (default: any free one)')
    .action(async (o: { browser: boolean; withToken?: boolean; port?: string }, cmd: Command) => login(contextOf(cmd), o));

  const logout = new Command('logout')
    .description('revoke the refresh token at the service and forget the profile\'s tokens')
    .action(async (_o, cmd: Command) => {
      const ctx = contextOf(cmd);
      const { tokens, manager } = await ctx.signedIn();
      await manager.logout();
      ctx.out.result({ profile: ctx.profile, server: tokens.server, signedOut: true });
    });

  const whoami = new Command('whoami')
    .description('who is signed in on the profile (e-mail, name, accounts), as the service says')
    .action(async (_o, cmd: Command) => {
      const ctx = contextOf(cmd);
      const { manager, client } = await ctx.signedIn();
      const me = (await (await client.fetch('/oauth/userinfo')).json()) as { sub: string; email: string; name: string };
      const accounts = (await (await client.fetch('/api/2/accounts')).json()) as { id: string; name: string }[];
      const t = (await manager.store.read())!;
      const who = { profile: ctx.profile, server: t.server, userId: me.sub, email: me.email, name: me.name };
      if (ctx.out.json) ctx.out.result({ ...who, accounts: accounts.map((a) => ({ id: a.id, name: a.name })) });
      else ctx.out.result({ ...who, accounts: accounts.map((a) => `${a.name} (${a.id})`).join(', ') || '(none)' });
    });

  const token = new Command('token')
    .description('print a valid access token (refreshed through the shared profile when expired), for scripts')
    .action(async (_o, cmd: Command) => {
      const ctx = contextOf(cmd);
      const { manager } = await ctx.signedIn();
      const accessToken = await manager.accessToken();
      if (ctx.out.json) {
        const t = (await manager.store.read())!;
        ctx.out.result({ accessToken, expiresAt: new Date(t.expiresAt).toISOString() });
      } else process.stdout.write(`${accessToken}\n`);
    });
  return [loginCmd, logout, whoami, token];
}
