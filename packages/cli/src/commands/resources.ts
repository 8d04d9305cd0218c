// accounts, projects, workzones, members, files, tag-lists, annotations, measurements, share-links: list/get/create/update/delete
// as API 2 allows each (the generated paths of @scanbase/sdk; docs/cli.md has the table).
import fs from 'node:fs';
import { Command, Option } from 'commander';
import type { ScanbaseClient } from '@scanbase/sdk/node';
import { contextOf } from '../context.ts';
import { UsageError } from '../exit-codes.ts';
import { accountIdOf, subscriptionIdOf } from '../names.ts';

type Verb = 'list' | 'get' | 'create' | 'update' | 'delete';
type Scope = 'none' | 'account' | 'project';

export interface ScopeOptions {
  account?: string;
  project?: string;
}

interface Resource {
  name: string;
  scope: Scope;
  /** The collection's path under the scope. */
  collection: string;
  /** Table columns, in order (the JSON output has every member). */
  columns: string[];
  verbs: Partial<Record<Verb, { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; item?: (id: string) => string; alias?: string; help: string }>>;
  /** Fills what the create body may leave out (e.g. a zone's parent: the project's root zone); `scope`: the resolved scope's path and ids. */
  createDefaults?: (client: ScanbaseClient, scope: { accountId: string; path: string }, body: Record<string, unknown>, o: Record<string, string | undefined>) => Promise<void>;
  createOptions?: Option[];
  /** Commands of the resource beyond the five verbs (an annotation's `comment`). */
  extra?: () => Command[];
}

const enc = encodeURIComponent;
const item = (id: string) => `/${enc(id)}`;

/** The options a scope needs that no default fills: --project (checked before anything is asked of the service). */
export const checkScope = (scope: Scope, s: ScopeOptions) => {
  if (scope === 'project' && !s.project) throw new UsageError('--project is required (or SCANBASE_PROJECT)');
};

/** The scope's ids, the account resolved (by name, or the caller's only one: names.ts). */
export async function resolveScope(client: ScanbaseClient, scope: Scope, s: ScopeOptions): Promise<{ accountId: string; projectId: string; path: string }> {
  checkScope(scope, s);
  if (scope === 'none') return { accountId: '', projectId: '', path: '/api/2' };
  const accountId = await accountIdOf(client, s.account);
  if (scope === 'account') return { accountId, projectId: '', path: `/api/2/accounts/${enc(accountId)}` };
  return { accountId, projectId: s.project!, path: `/api/2/accounts/${enc(accountId)}/projects/${enc(s.project!)}` };
}

/** The five verbs of a resource API 2 lets one list, read, create, change and delete. */
const crud = (one: string, many: string, create: string, update: { method: 'PUT' | 'PATCH'; help: string }): Resource['verbs'] => ({
  list: { method: 'GET', help: `the ${many}` },
  get: { method: 'GET', item, help: `one ${one}` },
  create: { method: 'POST', help: `a ${one} (${create})` },
  update: { method: update.method, item, help: update.help },
  delete: { method: 'DELETE', item, help: `delete a ${one}` },
});

const RESOURCES: Resource[] = [
  {
    name: 'accounts', scope: 'none', collection: '/accounts', columns: ['id', 'name', 'type', 'createdAt'],
    verbs: { list: { method: 'GET', help: 'the accounts you belong to' }, get: { method: 'GET', item, help: 'one account' } },
  },
  {
    name: 'subscriptions', scope: 'account', collection: '/subscriptions', columns: ['id', 'name', 'isActive', 'scanCapacity', 'start', 'end'],
    verbs: { list: { method: 'GET', help: 'the account\'s subscriptions' }, get: { method: 'GET', item, help: 'one subscription' } },
  },
  {
    name: 'projects', scope: 'account', collection: '/projects', columns: ['id', 'name', 'rootWorkzoneId', 'subscriptionId', 'createdAt'],
    verbs: crud('project', 'account\'s projects you can see', '--name, --subscription, or --data', { method: 'PATCH', help: 'change a project (the members given)' }),
    createOptions: [new Option('--subscription <subscription>', 'the subscription the project counts against (its name or id)')],
    createDefaults: async (client, scope, body, o) => {
      if (o.subscription) body.subscriptionId = await subscriptionIdOf(client, scope.accountId, o.subscription);
    },
  },
  {
    name: 'workzones', scope: 'project', collection: '/workzones', columns: ['id', 'name', 'parentId', 'createdAt'],
    verbs: crud('work zone', 'project\'s work zones', '--name, --parent; default parent: the root zone', { method: 'PUT', help: 'rename or describe a work zone' }),
    createOptions: [new Option('--parent <zone>', 'the parent work zone (default: the project\'s root zone)')],
    createDefaults: async (client, scope, body, o) => {
      if (o.parent) body.parentWorkzoneId = o.parent;
      if (body.parentWorkzoneId) return;
      const res = await client.fetch(scope.path);
      body.parentWorkzoneId = ((await res.json()) as { rootWorkzoneId: string }).rootWorkzoneId;
    },
  },
  {
    name: 'members', scope: 'project', collection: '/members', columns: ['id', 'type', 'name', 'email', 'role', 'workzoneId'],
    verbs: {
      list: { method: 'GET', help: 'the project\'s members' },
      create: { method: 'POST', alias: 'add', help: 'add members (--data {"members":{"users":[{"user","role"}]},"workzones":[…]})' },
      delete: { method: 'DELETE', item: (id) => `/users/${enc(id)}`, alias: 'remove', help: 'remove a user from the project' },
    },
  },
  {
    name: 'files', scope: 'project', collection: '/files', columns: ['id', 'name', 'extension', 'size', 'blobName', 'workzoneId'],
    verbs: {
      list: { method: 'GET', help: 'the project\'s files' },
      get: { method: 'GET', item, help: 'one file' },
      update: { method: 'PATCH', item, help: 'rename a file (--name)' },
      delete: { method: 'DELETE', item, help: 'delete a file' },
    },
  },
  {
    name: 'tag-lists', scope: 'project', collection: '/tag-lists', columns: ['id', 'name', 'tagListType', 'workzoneId', 'tagsVersion'],
    verbs: crud('tag list', 'project\'s tag lists', '--name, --zone, --type 2d|3d', { method: 'PUT', help: 'replace a tag list\'s fields (every field: a missing one is erased)' }),
    createOptions: [new Option('--zone <zone>', 'the work zone of the list'), new Option('--type <type>', 'how the list shows: 2d or 3d').default('3d')],
    createDefaults: async (_c, _s, body, o) => {
      if (o.zone) body.workzoneId = o.zone;
      if (o.type && body.tagListType === undefined) body.tagListType = o.type;
    },
  },
  {
    name: 'annotations', scope: 'project', collection: '/annotations', columns: ['number', 'id', 'annotationType', 'title', 'workzoneId', 'assignedTo'],
    verbs: crud('annotation', 'project\'s annotations you may read', '--title, --zone, --at X,Y,Z, [--type, --assign]', {
      method: 'PUT', help: 'replace an annotation\'s fields (--data; every field: a missing one is erased)',
    }),
    createOptions: [
      new Option('--title <title>', 'the title'),
      new Option('--zone <zone>', 'the work zone (default: the project\'s root zone)'),
      new Option('--at <x,y,z>', 'the position, in project coordinates'),
      new Option('--type <type>', 'Note, Issue, Resolved or "Private note"').default('Note'),
      new Option('--assign <users>', 'user ids or URNs, comma-separated (members of the zone; each is mailed)'),
    ],
    createDefaults: async (client, scope, body, o) => {
      if (o.title !== undefined) body.title = o.title;
      if (o.at !== undefined) body.position = pointOf(o.at, '--at');
      if (o.type && body.annotationType === undefined) body.annotationType = o.type;
      if (o.assign) body.assignedTo = o.assign.split(',').map((u) => u.trim()).filter(Boolean);
      if (body.savedView === undefined) body.savedView = null;
      if (o.zone) body.workzoneId = o.zone;
      if (!body.workzoneId) body.workzoneId = await rootZoneOf(client, scope.path);
    },
    extra: () => [annotationCommentCommand()],
  },
  {
    name: 'measurements', scope: 'project', collection: '/measurements', columns: ['id', 'name', 'kind', 'length', 'height', 'area', 'workzoneId'],
    verbs: crud('measurement', 'project\'s measurements you may read', '--name, --kind, --points "X,Y,Z X,Y,Z …", [--zone]', {
      method: 'PUT', help: 'replace a measurement (--data; every field)',
    }),
    createOptions: [
      new Option('--kind <kind>', 'what is measured').choices(['distance', 'polyline', 'area', 'height']).default('distance'),
      new Option('--points <points>', 'the points in project coordinates: "X,Y,Z X,Y,Z …"'),
      new Option('--zone <zone>', 'the work zone (default: the project\'s root zone)'),
    ],
    createDefaults: async (client, scope, body, o) => {
      if (o.kind && body.kind === undefined) body.kind = o.kind;
      if (o.points !== undefined) body.points = o.points.trim().split(/\s+/).map((p) => pointOf(p, '--points'));
      if (o.zone) body.workzoneId = o.zone;
      if (!body.workzoneId) body.workzoneId = await rootZoneOf(client, scope.path);
    },
  },
  {
    name: 'share-links', scope: 'project', collection: '/share-links', columns: ['id', 'name', 'workzoneId', 'expiresAt', 'passwordProtected', 'link'],
    verbs: crud('share link', 'project\'s share links you may read', '--name, [--zone, --password, --expires, --options notes,issues,…]', {
      method: 'PUT', help: 'replace a share link (--data; every field: a missing one is erased, a null password is kept)',
    }),
    createOptions: [
      new Option('--zone <zone>', 'the work zone shared (default: the project\'s root zone)'),
      new Option('--password <password>', 'a password (12+ characters with 3 of upper, lower, digit, special; or 24+)'),
      new Option('--expires <date-time>', 'when the link stops working (RFC 3339)'),
      new Option('--options <options>', 'what the link shows besides files: notes,issues,measurements,crops,tags').default('notes,issues,measurements,tags'),
      new Option('--box-limit <box>', 'show only the points inside this box, in project coordinates: "MINX,MINY,MINZ MAXX,MAXY,MAXZ"'),
    ],
    createDefaults: async (client, scope, body, o) => {
      if (o.password !== undefined) body.password = o.password;
      if (o.expires !== undefined) body.expiresAt = o.expires;
      if (o.boxLimit !== undefined) body.boxLimit = boxOf(o.boxLimit, '--box-limit');
      if (body.membershipRequired === undefined) body.membershipRequired = false;
      if (body.shareOptions === undefined) {
        const on = new Set((o.options ?? '').split(',').map((x) => x.trim()).filter(Boolean));
        body.shareOptions = { workzones: false, notes: on.has('notes'), issues: on.has('issues'), measurements: on.has('measurements'), crops: on.has('crops'), tags: on.has('tags') };
      }
      if (o.zone) body.workzoneId = o.zone;
      if (!body.workzoneId) body.workzoneId = await rootZoneOf(client, scope.path);
    },
  },
];

/** "X,Y,Z" as a point (a usage error names the option otherwise). */
function pointOf(text: string, option: string): { x: number; y: number; z: number } {
  const parts = text.split(',').map((v) => Number(v.trim()));
  if (parts.length !== 3 || !parts.every((v) => Number.isFinite(v)) || text.split(',').some((v) => v.trim() === '')) {
    throw new UsageError(`${option}: expected X,Y,Z numbers, got "${text}"`);
  }
  const [x, y, z] = parts as [number, number, number];
  return { x, y, z };
}

/** "MINX,MINY,MINZ MAXX,MAXY,MAXZ" as a share link's boxLimit (the service checks min ≤ max and names the axis). */
function boxOf(text: string, option: string): { min: number[]; max: number[] } {
  const corners = text.trim().split(/\s+/);
  if (corners.length !== 2) throw new UsageError(`${option}: expected two corners "MINX,MINY,MINZ MAXX,MAXY,MAXZ", got "${text}"`);
  const [min, max] = corners.map((c) => pointOf(c, option)).map((p) => [p.x, p.y, p.z]) as [number[], number[]];
  return { min, max };
}

async function rootZoneOf(client: ScanbaseClient, projectPath: string): Promise<string> {
  const res = await client.fetch(projectPath);
  return ((await res.json()) as { rootWorkzoneId: string }).rootWorkzoneId;
}

/** `scanbase annotations comment ID --text T`: the vendor's createAnnotationComment. */
function annotationCommentCommand(): Command {
  const cmd = withScope(new Command('comment').description('add a comment to an annotation'), 'project')
    .argument('<id>', 'the annotation\'s id (or URN)')
    .requiredOption('--text <text>', 'the comment');
  cmd.action(async (id: string, _o: unknown, self: Command) => {
    const o = self.opts<{ text: string } & ScopeOptions>();
    const ctx = contextOf(self);
    checkScope('project', o);
    const { client } = await ctx.signedIn();
    const scope = await resolveScope(client, 'project', o);
    const res = await client.fetch(`${scope.path}/annotations${item(id)}/comments`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ description: o.text }),
    });
    ctx.out.result(await res.json(), ['id', 'attachedTo', 'description']);
  });
  return cmd;
}

/** --data: JSON text, @FILE, or - (standard input). */
function readData(data: string | undefined): Record<string, unknown> {
  if (data === undefined) return {};
  const text = data === '-' ? fs.readFileSync(0, 'utf8') : data.startsWith('@') ? fs.readFileSync(data.slice(1), 'utf8') : data;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--data: not JSON: ${(e as Error).message}`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new UsageError('--data: expected a JSON object');
  return v as Record<string, unknown>;
}

/** --account / --project, with SCANBASE_ACCOUNT / SCANBASE_PROJECT as defaults. */
export const withScope = (cmd: Command, scope: Scope) => {
  if (scope !== 'none') cmd.addOption(new Option('--account <account>', 'the account: its name or id (default: your only account)').env('SCANBASE_ACCOUNT'));
  if (scope === 'project') cmd.addOption(new Option('--project <id>', 'the project').env('SCANBASE_PROJECT'));
  return cmd;
};

function verbCommand(r: Resource, verb: Verb): Command {
  const v = r.verbs[verb]!;
  const cmd = withScope(new Command(verb).description(v.help), r.scope);
  if (v.alias) cmd.alias(v.alias);
  if (v.item) cmd.argument('<id>', 'the id (or URN)');
  if (verb === 'create' || verb === 'update') {
    cmd.option('--name <name>', 'the name').option('--description <text>', 'the description').option('--data <json>', 'the body: JSON, @FILE, or - for standard input');
    if (verb === 'create') for (const o of r.createOptions ?? []) cmd.addOption(o);
  }
  cmd.action(async (...args: unknown[]) => {
    const self = args.at(-1) as Command;
    const id = v.item ? (args[0] as string) : undefined;
    const o = self.opts<Record<string, string | undefined> & ScopeOptions>();
    const ctx = contextOf(self);
    checkScope(r.scope, o);
    let body: Record<string, unknown> | undefined;
    if (verb === 'create' || verb === 'update') {
      body = readData(o.data);
      if (o.name !== undefined) body.name = o.name;
      if (o.description !== undefined) body.description = o.description;
    }
    const { client } = await ctx.signedIn();
    const scope = await resolveScope(client, r.scope, o);
    if (body && verb === 'create') await r.createDefaults?.(client, scope, body, o);
    const res = await client.fetch(`${scope.path}${r.collection}${id === undefined ? '' : v.item!(id)}`, {
      method: v.method,
      ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (verb === 'delete' || !text) return ctx.out.result(ctx.out.json ? { deleted: id ?? true } : `${r.name} ${id}: deleted`);
    ctx.out.result(JSON.parse(text), r.columns);
  });
  return cmd;
}

/**
 * `extra`: commands a resource has besides its verbs, by resource name, for those defined in
 * files that import this one (files point-cloud); a resource's own (annotations comment) are its `extra`.
 */
export function resourceCommands(extra: Record<string, Command[]> = {}): Command[] {
  return RESOURCES.map((r) => {
    const extras = [...(r.extra?.() ?? []), ...(extra[r.name] ?? [])];
    const cmd = new Command(r.name).description(`${r.name}: ${[...Object.keys(r.verbs), ...extras.map((c) => c.name())].join(', ')}`);
    for (const verb of Object.keys(r.verbs) as Verb[]) cmd.addCommand(verbCommand(r, verb));
    for (const c of extras) cmd.addCommand(c);
    return cmd;
  });
}
