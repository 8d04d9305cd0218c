// integrations: an account's Konekt hubs and a project's Konekt and Autodesk configurations
// (API 2 …/integrations, vendor BETA; docs/integrations.md): list, create, connect,
// disconnect, delete. A Konekt token is read from standard input only (never a command-line
// argument, which shell histories and process lists keep) and never printed.
import fs from 'node:fs';
import { Argument, Command, Option } from 'commander';
import type { ScanbaseClient } from '@scanbase/sdk/node';
import { contextOf } from '../context.ts';
import { UsageError } from '../exit-codes.ts';
import { resolveScope, withScope, type ScopeOptions } from './resources.ts';

const enc = encodeURIComponent;
const HUB_COLUMNS = ['id', 'konektId', 'name', 'connected', 'beta'];

/** One request under the account's or the project's path; answers the parsed body (null for 204). */
async function call(cmd: Command, scope: 'account' | 'project', method: string, sub: string, body?: unknown): Promise<unknown> {
  const ctx = contextOf(cmd);
  const { client }: { client: ScanbaseClient } = await ctx.signedIn();
  const s = await resolveScope(client, scope, cmd.opts<ScopeOptions>());
  const res = await client.fetch(`${s.path}${sub}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return text ? JSON.parse(text) : null;
}

const action = <A extends unknown[]>(run: (cmd: Command, ...args: A) => Promise<void>) =>
  (...args: unknown[]) => run(args.at(-1) as Command, ...(args.slice(0, -1) as A));

function tokenFromStdin(): string {
  const token = fs.readFileSync(0, 'utf8').replace(/\r?\n$/, '');
  if (!token) throw new UsageError('--token-stdin: standard input was empty');
  return token;
}

const LINK_COLUMNS = ['annotation', 'type', 'status', 'url', 'failure'];
interface LinkRow { annotation: string; type: string; status: string; url: string | null; failure: string | null }

/**
 * The links initialised (`created`: annotation → types) as the annotations show them, read
 * again every 2 s until none is pending or `waitMs` has passed (docs/integrations.md: the batch
 * creates them at the third party in the background).
 */
async function settledLinks(cmd: Command, created: Record<string, string[]>, waitMs: number): Promise<LinkRow[]> {
  const until = Date.now() + waitMs;
  for (;;) {
    const annotations = await call(cmd, 'project', 'GET', '/annotations') as { id: string; integrations: Omit<LinkRow, 'annotation'>[] }[];
    const rows = annotations.filter((a) => created[a.id]).flatMap((a) => a.integrations
      .filter((l) => created[a.id]!.includes(l.type))
      .map((l) => ({ annotation: a.id, type: l.type, status: l.status, url: l.url, failure: l.failure })));
    if (!rows.some((r) => r.status === 'pending') || Date.now() >= until) return rows;
    await new Promise((resolve) => setTimeout(resolve, Math.min(2000, until - Date.now())));
  }
}

const done = (cmd: Command, json: unknown, text: string) => contextOf(cmd).out.result(contextOf(cmd).out.json ? json : text);

export function integrationCommands(): Command {
  const root = new Command('integrations').description('third-party integrations (Konekt, Autodesk): the account\'s hubs, a project\'s configurations');

  root.addCommand(withScope(new Command('list'), 'account').description('the account\'s Konekt hubs')
    .action(action(async (cmd) => {
      const all = (await call(cmd, 'account', 'GET', '/integrations')) as { konekt: unknown[] };
      contextOf(cmd).out.result(all.konekt, HUB_COLUMNS);
    })));

  root.addCommand(withScope(new Command('create'), 'account').description('configure a Konekt hub on the account (the hub is the one the token opens)')
    .requiredOption('--token-stdin', 'read the Konekt API token from standard input')
    .addOption(new Option('--sync-strategy <s>', 'how changes travel').choices(['CONFIG_ON_PROJECT', 'BOTH_WAY', 'UPDATES_ONLY_FROM_KONEKT']))
    .option('--allow-create-users', 'let synchronisation create users on the hub')
    .action(action(async (cmd) => {
      const o = cmd.opts<{ syncStrategy?: string; allowCreateUsers?: boolean }>();
      const options = { ...(o.syncStrategy ? { syncStrategy: o.syncStrategy } : {}), ...(o.allowCreateUsers ? { allowCreateNewUsersOnHub: true } : {}) };
      contextOf(cmd).out.result(await call(cmd, 'account', 'POST', '/integrations/konekt', { token: tokenFromStdin(), options }), HUB_COLUMNS);
    })));

  root.addCommand(withScope(new Command('connect'), 'account').description('connect a hub again with a token (of the same hub)').argument('<id>', 'the hub integration\'s id (or URN)')
    .requiredOption('--token-stdin', 'read the Konekt API token from standard input')
    .action(action(async (cmd, id: string) => {
      contextOf(cmd).out.result(await call(cmd, 'account', 'POST', `/integrations/konekt/${enc(id)}/connection`, { token: tokenFromStdin() }), HUB_COLUMNS);
    })));

  root.addCommand(withScope(new Command('disconnect'), 'account').description('drop a hub\'s token without removing it').argument('<id>')
    .action(action(async (cmd, id: string) => {
      await call(cmd, 'account', 'DELETE', `/integrations/konekt/${enc(id)}/connection`);
      done(cmd, { disconnected: id }, `${id}: disconnected`);
    })));

  root.addCommand(withScope(new Command('delete'), 'account').description('remove a Konekt hub from the account').argument('<id>')
    .action(action(async (cmd, id: string) => {
      await call(cmd, 'account', 'DELETE', `/integrations/konekt/${enc(id)}`);
      done(cmd, { deleted: id }, `${id}: deleted`);
    })));

  const project = new Command('project').description('a project\'s Konekt and Autodesk configurations: show, set, delete');
  project.addCommand(withScope(new Command('show'), 'project').description('the project\'s configurations')
    .action(action(async (cmd) => contextOf(cmd).out.result(await call(cmd, 'project', 'GET', '/integrations')))));
  project.addCommand(withScope(new Command('konekt'), 'project').description('configure the project with a Konekt hub and project (created, or replaced with --replace)')
    .requiredOption('--hub <id>', 'the hub\'s id on Konekt')
    .requiredOption('--konekt-project <n>', 'the project\'s id on Konekt ("new": create it on the hub)')
    .option('--allow-invite-users', 'let synchronisation invite users on the Konekt project')
    .addOption(new Option('--sync-strategy <s>', 'omitted: the hub\'s').choices(['BOTH_WAY', 'UPDATES_ONLY_FROM_KONEKT']))
    .option('--replace', 'overwrite the existing configuration (PUT) instead of creating one')
    .action(action(async (cmd) => {
      const o = cmd.opts<{ hub: string; konektProject: string; allowInviteUsers?: boolean; syncStrategy?: string; replace?: boolean }>();
      const konektProjectId = o.konektProject === 'new' ? null : Number(o.konektProject);
      if (konektProjectId !== null && !Number.isInteger(konektProjectId)) throw new UsageError('--konekt-project: an integer, or "new"');
      const body = { hubId: o.hub, konektProjectId, options: { allowInviteUsers: Boolean(o.allowInviteUsers), syncStrategy: o.syncStrategy ?? null } };
      contextOf(cmd).out.result(await call(cmd, 'project', o.replace ? 'PUT' : 'POST', '/integrations/konekt', body));
    })));
  project.addCommand(withScope(new Command('autodesk'), 'project').description('configure the project with an Autodesk hub and project (created, or replaced with --replace)')
    .requiredOption('--hub <id>', 'the hub\'s id at Autodesk')
    .requiredOption('--autodesk-project <id>', 'the project\'s id at Autodesk')
    .option('--replace', 'overwrite the existing configuration (PUT) instead of creating one')
    .action(action(async (cmd) => {
      const o = cmd.opts<{ hub: string; autodeskProject: string; replace?: boolean }>();
      contextOf(cmd).out.result(await call(cmd, 'project', o.replace ? 'PUT' : 'POST', '/integrations/autodesk', { autodeskHubId: o.hub, autodeskProjectId: o.autodeskProject }));
    })));
  project.addCommand(withScope(new Command('delete'), 'project').description('remove one of the project\'s configurations')
    .addArgument(new Argument('<integration>', 'konekt or autodesk').choices(['konekt', 'autodesk']))
    .action(action(async (cmd, which: string) => {
      await call(cmd, 'project', 'DELETE', `/integrations/${which}`);
      done(cmd, { deleted: which }, `${which}: deleted`);
    })));
  root.addCommand(project);

  root.addCommand(withScope(new Command('links'), 'project').description('initialise integration links on annotations (those whose prerequisites hold)')
    .requiredOption('--types <list>', 'comma-separated: AUTODESK, NEWFORMA_KONEKT, PROCORE')
    .option('--annotations <ids>', 'comma-separated annotation ids (omitted: every annotation you may read)')
    .option('--wait [seconds]', 'then wait (at most this long, default 120) until the service has created them at the third party, and show each one\'s url or why it failed')
    .action(action(async (cmd) => {
      const o = cmd.opts<{ types: string; annotations?: string; wait?: string | true }>();
      const body = {
        integrationTypes: o.types.split(',').map((s) => s.trim()).filter(Boolean),
        ...(o.annotations ? { annotations: o.annotations.split(',').map((s) => s.trim()).filter(Boolean) } : {}),
      };
      const answer = await call(cmd, 'project', 'POST', '/annotations/bulk-create-integration', body) as { created: Record<string, string[]> };
      if (o.wait === undefined) return contextOf(cmd).out.result(answer);
      const seconds = o.wait === true ? 120 : Number(o.wait);
      if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError('--wait: a number of seconds above 0');
      contextOf(cmd).out.result(await settledLinks(cmd, answer.created, seconds * 1000), LINK_COLUMNS);
    })));
  return root;
}
