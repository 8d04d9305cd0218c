// `npm run admin -- <command>`: administration of a deployment from its own configuration
// (the same environment as `npm start`: DATABASE_URL or DATA_DIR, PUBLIC_URL…), with the
// service running or not. On PostgreSQL it runs beside running nodes (they see its
// changes through their domain events); the embedded database belongs to one process, so
// with PGlite stop the service first. Use cases: src/core/operator/admin.ts.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './adapters/postgres/open.ts';
import { migrate } from './adapters/postgres/migrate.ts';
import { createStore } from './adapters/postgres/store.ts';
import { DataDirLockedError } from './adapters/postgres/pglite.ts';
import { OffsetClock } from './adapters/clock/offset-clock.ts';
import { randomIds } from './adapters/ids/random-ids.ts';
import { argon2Hasher } from './adapters/crypto/argon2-hasher.ts';
import { createEs256Signer } from './adapters/jwt/es256-signer.ts';
import { ADMIN_ACCOUNT_ROLES, type AdminAccountRole, createAdmin, createSandboxClock, createSeeder } from './core/operator/index.ts';
import { seedRolesAndGroups } from './core/roles/index.ts';
import { createSigningKeys } from './core/oauth/index.ts';
import { silentLogger } from './core/ports/telemetry.ts';
import { DomainError } from './core/errors.ts';
import type { AccountRole, OutboxEntry, RelayState } from './core/ports/repositories.ts';

const USAGE = `Usage: npm run admin -- <command> [options] [--json]

  create-account --name NAME --owner EMAIL [--owner-roles ROLES] [--password-stdin]
      Creates the account and its owner (the user too, if new). The owner is also a
      project manager (he may create projects) unless --owner-roles says otherwise: a
      comma list of ${Object.keys(ADMIN_ACCOUNT_ROLES).join(', ')} (member: no role). Without
      --password-stdin a user with no password gets a one-time set-password link (7 days),
      printed here.
  users [--limit N]                       Lists users (e-mail, id, whether a password is set).
  subscriptions --account ACCOUNT         Lists an account's subscriptions (ACCOUNT: name or id).
  create-subscription --account ACCOUNT --name NAME [--scans N] [--tags N] [--geo-images N]
      [--start ISO-DATE] [--end ISO-DATE] [--trial]
  add-role --account ACCOUNT --email EMAIL --role ${Object.keys(ADMIN_ACCOUNT_ROLES).join('|')}
      Adds the account role (the user too, if new: then a set-password link is printed).
  reset-password --email EMAIL            Forgets the password, ends the user's refresh tokens,
                                          prints a one-time set-password link.
  rotate-signing-key                      Adds a JWT signing key and retires the current one
                                          after the longest access-token lifetime.
  outbox [--limit N] [--state S]          The mails the service has written, newest first, with
                                          their SMTP relay state (S: stored|pending|sent|failed),
                                          attempts and last error.
`;

class UsageError extends Error {}

const RELAY_STATES: string[] = ['stored', 'pending', 'sent', 'failed'] satisfies RelayState[];

/** The relay state of a mail, one line: what an operator checks when someone says no mail came. */
function relayLine(r: OutboxEntry['relay']): string {
  const what = {
    stored: 'outbox only (no SMTP when written)',
    pending: `pending, ${r.attempts} attempt(s) so far`,
    sent: `sent at ${r.relayedAt?.toISOString() ?? '?'} (attempt ${r.attempts})`,
    failed: `FAILED after ${r.attempts} attempt(s)`,
  }[r.state];
  return `relay: ${what}${r.lastError && r.state !== 'sent' ? `; last error: ${r.lastError}` : ''}`;
}

const OPTIONS = {
  name: { type: 'string' }, owner: { type: 'string' }, account: { type: 'string' }, email: { type: 'string' },
  role: { type: 'string' }, limit: { type: 'string' }, scans: { type: 'string' }, tags: { type: 'string' },
  'geo-images': { type: 'string' }, start: { type: 'string' }, end: { type: 'string' }, trial: { type: 'boolean' },
  'password-stdin': { type: 'boolean' }, 'owner-roles': { type: 'string' }, state: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function need(values: Values, name: keyof Values): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

function count(values: Values, name: keyof Values, fallback?: number): number | undefined {
  const v = values[name];
  if (v === undefined) return fallback;
  if (typeof v !== 'string' || !/^\d{1,9}$/.test(v)) throw new UsageError(`--${name} must be a whole number`);
  return Number(v);
}

/** --owner-roles: a comma list of the admin role names (default DEFAULT_OWNER_ROLES). */
function rolesOption(v: string | undefined): AdminAccountRole[] | undefined {
  if (v === undefined) return undefined;
  const roles = v.split(',').map((r) => r.trim()).filter(Boolean);
  const unknown = roles.filter((r) => !(r in ADMIN_ACCOUNT_ROLES));
  if (unknown.length || !roles.length) throw new UsageError(`--owner-roles takes a comma list of ${Object.keys(ADMIN_ACCOUNT_ROLES).join(', ')}`);
  return roles as AdminAccountRole[];
}

/** How the output names an account role. */
const ROLE_NAMES: Record<AccountRole, string> = { administrator: 'administrator', projectManager: 'project manager', projectLister: 'project lister' };

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const command = positionals[0];
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return command || values.help ? 0 : 2;
  }
  if (positionals.length > 1) throw new UsageError(`Unexpected argument ${positionals[1]}`);

  const config = loadConfig();
  const sql = await openDatabase(config.database);
  try {
    await migrate(sql);
    const store = await createStore(sql);
    const clock = new OffsetClock();
    // The sandbox's shared clock, so links expire on the service's time.
    if (config.sandbox) await createSandboxClock({ store, clock }).load();
    const ids = randomIds;
    const applySeed = createSeeder({ store, clock, ids, hasher: argon2Hasher, extensions: [seedRolesAndGroups(ids, clock)] });
    const admin = createAdmin({ store, clock, ids, publicUrl: config.publicUrl, applySeed });
    const out = (json: unknown, text: string) => process.stdout.write(values.json ? `${JSON.stringify(json, null, 2)}\n` : `${text}\n`);
    const linkLine = (link: string | null) => (link ? `\nOne-time set-password link (valid 7 days; give it to the user only):\n${link}` : '');

    switch (command) {
      case 'create-account': {
        const ownerRoles = rolesOption(values['owner-roles']);
        const password = values['password-stdin'] ? await readStdin() : undefined;
        const r = await admin.createAccount({ name: need(values, 'name'), ownerEmail: need(values, 'owner'), password, ownerRoles });
        const roles = ['owner', ...r.ownerRoles.map((role) => ROLE_NAMES[role])].join(', ');
        out(r, `Account ${r.account.name} (${r.account.id}), owner ${need(values, 'owner')} (${r.ownerId}), roles: ${roles}${linkLine(r.setPasswordLink)}`);
        break;
      }
      case 'users': {
        const users = await admin.listUsers(count(values, 'limit', 1000)!);
        const rows = users.map((u) => ({ email: u.email, id: u.id, name: `${u.firstName} ${u.lastName}`.trim(), password: u.passwordHash !== null }));
        out(rows, rows.map((u) => `${u.email}\t${u.id}\t${u.password ? 'password set' : 'no password'}\t${u.name}`).join('\n') || '(no users)');
        break;
      }
      case 'subscriptions': {
        const subs = await admin.listSubscriptions(need(values, 'account'));
        out(subs, subs.map((s) => `${s.name}\t${s.id}\tscans ${s.scanCapacity}\ttags ${s.tagCapacity}\tgeo-images ${s.geoImageCapacity}\t${s.isActive ? 'active' : 'inactive'}`).join('\n') || '(no subscriptions)');
        break;
      }
      case 'create-subscription': {
        const subs = await admin.createSubscription(need(values, 'account'), {
          name: need(values, 'name'),
          scanCapacity: count(values, 'scans'),
          tagCapacity: count(values, 'tags'),
          geoImageCapacity: count(values, 'geo-images'),
          start: values.start ?? null,
          end: values.end ?? null,
          isTrial: values.trial ?? false,
        });
        const made = subs.find((s) => s.name === values.name)!;
        out(made, `Subscription ${made.name} (${made.id}) on ${values.account}`);
        break;
      }
      case 'add-role': {
        const role = need(values, 'role');
        if (!(role in ADMIN_ACCOUNT_ROLES)) throw new UsageError(`--role must be one of ${Object.keys(ADMIN_ACCOUNT_ROLES).join(', ')}`);
        const r = await admin.addAccountRole(need(values, 'account'), need(values, 'email'), role as AdminAccountRole);
        out(r, `${values.email} is ${role} of ${values.account}${linkLine(r.setPasswordLink)}`);
        break;
      }
      case 'reset-password': {
        const r = await admin.resetPassword(need(values, 'email'));
        out(r, `The password of ${values.email} is forgotten and its refresh tokens ended.${linkLine(r.setPasswordLink)}`);
        break;
      }
      case 'rotate-signing-key': {
        const signer = await createEs256Signer(sql, { issuer: config.publicUrl, audience: config.publicUrl });
        const r = await createSigningKeys({ store, clock, signer, logger: silentLogger }).rotate();
        out(r, `Signing with ${r.kid} from now on; retiring: ${r.retiring.map((k) => `${k.kid} at ${k.retiresAt}`).join(', ') || 'none'}`);
        break;
      }
      case 'outbox': {
        const state = values.state;
        if (state !== undefined && !RELAY_STATES.includes(state)) throw new UsageError(`--state must be one of ${RELAY_STATES.join(', ')}`);
        const mails = await admin.outbox(count(values, 'limit', 20)!, state as RelayState | undefined);
        out(mails, mails.map((m) => `${m.sentAt.toISOString()}  to ${m.to}  ${m.subject}\n${relayLine(m.relay)}\n${m.text}\n`).join('\n') || '(no mail)');
        break;
      }
      default:
        throw new UsageError(`Unknown command ${command}`);
    }
    await store.close();
    return 0;
  } finally {
    await sql.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof UsageError || (e instanceof TypeError && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS'))) {
      console.error(`scanbase admin: ${e.message}\n\n${USAGE}`);
      process.exit(2);
    }
    if (e instanceof ConfigError || e instanceof DataDirLockedError || e instanceof DomainError) {
      const hint = e instanceof DataDirLockedError ? ' (the embedded database belongs to the running service: stop it first)' : '';
      console.error(`scanbase admin: ${e.message}${hint}`);
      process.exit(1);
    }
    console.error('scanbase admin: failed:', e);
    process.exit(1);
  },
);
