// sso: an account's single sign-on settings (API 2 /accounts/{account}/sso, our extension;
// docs/identity.md): show, the OpenID Connect or SAML provider, the e-mail domains and their
// "require SSO" switch, the mapping rules. The client secret is read from standard input only
// (never a command-line argument, which shell histories and process lists keep).
import fs from 'node:fs';
import { Command, Option } from 'commander';
import type { ScanbaseClient } from '@scanbase/sdk/node';
import { contextOf } from '../context.ts';
import { UsageError } from '../exit-codes.ts';
import { resolveScope, withScope, type ScopeOptions } from './resources.ts';

const enc = encodeURIComponent;

/** One request under the account's /sso; answers the parsed body (null for 204). */
async function call(cmd: Command, o: ScopeOptions, method: string, sub: string, body?: unknown): Promise<unknown> {
  const ctx = contextOf(cmd);
  const { client }: { client: ScanbaseClient } = await ctx.signedIn();
  const scope = await resolveScope(client, 'account', o);
  const res = await client.fetch(`${scope.path}/sso${sub}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return text ? JSON.parse(text) : null;
}

const action = <A extends unknown[]>(run: (cmd: Command, ...args: A) => Promise<void>) =>
  (...args: unknown[]) => run(args.at(-1) as Command, ...(args.slice(0, -1) as A));

export function ssoCommands(): Command {
  const sso = new Command('sso').description('the account\'s single sign-on (OpenID Connect or SAML 2.0): show, provider, domains, rules');

  sso.addCommand(withScope(new Command('show'), 'account').description('the identity provider, the domains and the mapping rules')
    .action(action(async (cmd) => {
      const ctx = contextOf(cmd);
      const s = (await call(cmd, cmd.opts(), 'GET', '')) as { provider: Record<string, unknown> | null; domains: unknown[]; rules: unknown[] };
      if (ctx.out.json) return ctx.out.result(s);
      ctx.out.result(s.provider ?? 'No identity provider.');
      ctx.out.note('');
      ctx.out.result(s.domains, ['domain', 'verified', 'requireSso', 'createdAt']);
      ctx.out.note('');
      ctx.out.result(s.rules, ['id', 'claim', 'value', 'group', 'accountRole']);
    })));

  const provider = new Command('provider').description('the identity provider: set (OpenID Connect), set-saml (SAML 2.0), remove');
  provider.addCommand(withScope(new Command('set'), 'account').description('set the identity provider (discovery at <issuer>/.well-known/openid-configuration)')
    .requiredOption('--display-name <name>', 'shown on the sign-in page: "Continue with <name>"')
    .requiredOption('--issuer <url>', 'the issuer identifier (https)')
    .requiredOption('--client-id <id>', 'the client id registered at the IdP')
    .option('--client-secret-stdin', 'read the client secret from standard input (omitted: the stored one stays)')
    .option('--public-client', 'no client secret (PKCE only)')
    .option('--scopes <list>', 'comma-separated scopes (openid and email are always asked for)')
    .addOption(new Option('--disabled', 'keep the settings but offer no sign-in with them'))
    .action(action(async (cmd) => {
      const o = cmd.opts<ScopeOptions & { displayName: string; issuer: string; clientId: string; clientSecretStdin?: boolean; publicClient?: boolean; scopes?: string; disabled?: boolean }>();
      if (o.clientSecretStdin && o.publicClient) throw new UsageError('--client-secret-stdin and --public-client exclude each other');
      const secret = o.clientSecretStdin ? fs.readFileSync(0, 'utf8').replace(/\r?\n$/, '') : undefined;
      if (o.clientSecretStdin && !secret) throw new UsageError('--client-secret-stdin: standard input was empty');
      const body = {
        displayName: o.displayName, issuer: o.issuer, clientId: o.clientId, enabled: !o.disabled,
        ...(o.publicClient ? { clientSecret: null } : secret ? { clientSecret: secret } : {}),
        ...(o.scopes ? { scopes: o.scopes.split(',').map((s) => s.trim()).filter(Boolean) } : {}),
      };
      contextOf(cmd).out.result(await call(cmd, o, 'PUT', '/provider', body));
    })));
  provider.addCommand(withScope(new Command('set-saml'), 'account').description('set a SAML 2.0 identity provider, from its metadata file or field by field; prints the SP entity ID, ACS URL and metadata URL to enter at the IdP')
    .requiredOption('--display-name <name>', 'shown on the sign-in page: "Continue with <name>"')
    .option('--metadata <file>', "the IdP's SAML metadata XML (fills what the options below do not give)")
    .option('--entity-id <uri>', "the IdP's entity ID (the assertions' Issuer)")
    .option('--sso-url <url>', "the IdP's single sign-on URL (HTTP-Redirect binding)")
    .option('--certificate <file...>', "the IdP's signing certificate, PEM or base64 (repeat during a key rollover)")
    .option('--email-attribute <name>', 'the attribute holding the e-mail address')
    .option('--first-name-attribute <name>', 'the attribute holding the first name')
    .option('--last-name-attribute <name>', 'the attribute holding the last name')
    .option('--groups-attribute <name>', 'the attribute whose values are the groups claim mapping rules read')
    .addOption(new Option('--disabled', 'keep the settings but offer no sign-in with them'))
    .action(action(async (cmd) => {
      const o = cmd.opts<ScopeOptions & {
        displayName: string; metadata?: string; entityId?: string; ssoUrl?: string; certificate?: string[];
        emailAttribute?: string; firstNameAttribute?: string; lastNameAttribute?: string; groupsAttribute?: string; disabled?: boolean;
      }>();
      if (!o.metadata && !(o.entityId && o.ssoUrl && o.certificate)) throw new UsageError('--metadata, or --entity-id, --sso-url and --certificate');
      const read = (file: string) => {
        try {
          return fs.readFileSync(file, 'utf8');
        } catch (e) {
          throw new UsageError(`${file}: ${e instanceof Error ? e.message : String(e)}`);
        }
      };
      const attributes = Object.fromEntries(Object.entries({
        email: o.emailAttribute, firstName: o.firstNameAttribute, lastName: o.lastNameAttribute, groups: o.groupsAttribute,
      }).filter((e) => e[1] !== undefined));
      const body = {
        protocol: 'saml', displayName: o.displayName, enabled: !o.disabled,
        saml: {
          ...(o.metadata ? { metadataXml: read(o.metadata) } : {}),
          ...(o.entityId ? { entityId: o.entityId } : {}),
          ...(o.ssoUrl ? { ssoUrl: o.ssoUrl } : {}),
          ...(o.certificate ? { certificates: o.certificate.map(read) } : {}),
          ...(Object.keys(attributes).length ? { attributes } : {}),
        },
      };
      contextOf(cmd).out.result(await call(cmd, o, 'PUT', '/provider', body));
    })));
  provider.addCommand(withScope(new Command('remove'), 'account').description('remove the identity provider')
    .action(action(async (cmd) => {
      await call(cmd, cmd.opts(), 'DELETE', '/provider');
      contextOf(cmd).out.result(contextOf(cmd).out.json ? { deleted: true } : 'identity provider removed');
    })));
  sso.addCommand(provider);

  const domains = new Command('domains').description('the account\'s e-mail domains: add, require, remove');
  domains.addCommand(withScope(new Command('add'), 'account').description('claim a domain; prints the verification token to give the operator (shown once)')
    .argument('<domain>', 'e.g. example.com')
    .action(action(async (cmd, domain: string) => {
      const ctx = contextOf(cmd);
      const d = (await call(cmd, cmd.opts(), 'POST', '/domains', { domain })) as { verificationToken: string };
      ctx.out.result(d);
      ctx.out.note(`\nGive the operator this token; they run: npm run admin -- confirm-sso-domain --domain ${domain} --token ${d.verificationToken}`);
    })));
  domains.addCommand(withScope(new Command('require'), 'account').description('require single sign-on for a verified domain (password sign-in refused)')
    .argument('<domain>')
    .option('--off', 'allow password sign-in again')
    .action(action(async (cmd, domain: string) => {
      const o = cmd.opts<ScopeOptions & { off?: boolean }>();
      contextOf(cmd).out.result(await call(cmd, o, 'PATCH', `/domains/${enc(domain)}`, { requireSso: !o.off }));
    })));
  domains.addCommand(withScope(new Command('remove'), 'account').description('remove a domain claim').argument('<domain>')
    .action(action(async (cmd, domain: string) => {
      await call(cmd, cmd.opts(), 'DELETE', `/domains/${enc(domain)}`);
      contextOf(cmd).out.result(contextOf(cmd).out.json ? { deleted: domain } : `${domain}: removed`);
    })));
  sso.addCommand(domains);

  const rules = new Command('rules').description('mapping rules (an ID token claim value → a group and/or an account role): add, set, remove');
  /** The options of a rule, shared by add and set (set replaces the whole rule, as PUT does). */
  const ruleOptions = (c: Command) => withScope(c, 'account')
    .requiredOption('--claim <claim>', 'the ID token claim, e.g. groups (dotted for nested: realm_access.roles)')
    .requiredOption('--value <value>', 'the value the claim equals or contains')
    .option('--group <group>', 'a group of the account (URN or id)')
    .addOption(new Option('--role <role>', 'an account role').choices(['administrator', 'projectManager', 'projectLister']));
  const ruleBody = (o: { claim: string; value: string; group?: string; role?: string }) => {
    if (!o.group && !o.role) throw new UsageError('--group or --role (or both) is required');
    return { claim: o.claim, value: o.value, group: o.group ?? null, accountRole: o.role ?? null };
  };
  type RuleOptions = ScopeOptions & { claim: string; value: string; group?: string; role?: string };
  rules.addCommand(ruleOptions(new Command('add')).description('add a rule')
    .action(action(async (cmd) => {
      const o = cmd.opts<RuleOptions>();
      contextOf(cmd).out.result(await call(cmd, o, 'POST', '/rules', ruleBody(o)));
    })));
  rules.addCommand(ruleOptions(new Command('set')).description('change a rule in place (its id stays): every option as for add').argument('<id>')
    .action(action(async (cmd, id: string) => {
      const o = cmd.opts<RuleOptions>();
      contextOf(cmd).out.result(await call(cmd, o, 'PUT', `/rules/${enc(id)}`, ruleBody(o)));
    })));
  rules.addCommand(withScope(new Command('remove'), 'account').description('remove a rule').argument('<id>')
    .action(action(async (cmd, id: string) => {
      await call(cmd, cmd.opts(), 'DELETE', `/rules/${enc(id)}`);
      contextOf(cmd).out.result(contextOf(cmd).out.json ? { deleted: id } : `rule ${id}: removed`);
    })));
  sso.addCommand(rules);
  return sso;
}
