// scim: an account's SCIM token (API 2 /accounts/{account}/scim/token, our extension;
// docs/identity.md "SCIM provisioning"): show whether one is set, create (or rotate) it, revoke
// it. The token is printed once, on creation, for the IdP's provisioning settings.
import { Command } from 'commander';
import type { ScanbaseClient } from '@scanbase/sdk/node';
import { contextOf } from '../context.ts';
import { resolveScope, withScope, type ScopeOptions } from './resources.ts';

/** One request on the account's SCIM token; answers the parsed body (null for 204). */
async function call(cmd: Command, method: string): Promise<unknown> {
  const ctx = contextOf(cmd);
  const { client }: { client: ScanbaseClient } = await ctx.signedIn();
  const scope = await resolveScope(client, 'account', cmd.opts<ScopeOptions>());
  const res = await client.fetch(`${scope.path}/scim/token`, { method });
  const text = await res.text();
  return text ? JSON.parse(text) : null;
}

const action = (run: (cmd: Command) => Promise<void>) => (...args: unknown[]) => run(args.at(-1) as Command);

export function scimCommands(): Command {
  const scim = new Command('scim').description('SCIM provisioning from an identity provider (Okta, Entra ID): the account\'s token');
  const token = new Command('token').description('the account\'s SCIM bearer token: show, create (rotate), revoke');
  token.addCommand(withScope(new Command('show'), 'account').description('whether the account has a SCIM token (never the token), and the SCIM base URL')
    .action(action(async (cmd) => contextOf(cmd).out.result(await call(cmd, 'GET')))));
  token.addCommand(withScope(new Command('create'), 'account').description('create the SCIM token, replacing the one before at once; printed this once')
    .action(action(async (cmd) => contextOf(cmd).out.result(await call(cmd, 'POST')))));
  token.addCommand(withScope(new Command('revoke'), 'account').description('revoke the SCIM token: provisioning stops')
    .action(action(async (cmd) => {
      await call(cmd, 'DELETE');
      contextOf(cmd).out.note('SCIM token revoked.');
    })));
  scim.addCommand(token);
  return scim;
}
