// The administration commands (`npm run admin -- <command>`, docs/operations.md): the
// arguments parsed, the use case called, the answer written, the same whether the command
// opened the database itself (src/admin.ts) or the running service runs it for the command
// over its administration socket (src/admin-socket.ts, embedded database only). Use cases:
// src/modules/operator/core/admin.ts.
import { parseArgs } from 'node:util';
import { ADMIN_ACCOUNT_ROLES, type AdminAccountRole, type AdminUse } from './modules/operator/index.ts';
import type { RotationView } from './modules/oauth/index.ts';
import type { SsoDomainRecord } from './modules/sso/index.ts';
import type { SnapshotControl, SnapshotInfo } from './modules/sandbox/index.ts';
import type { AuditLog, Verification } from './modules/audit/index.ts';
import { DomainError } from './core/errors.ts';
import { ConfigError } from './config.ts';
import type { AccountRole } from './core/ports/repositories.ts';
import type { OutboxEntry, RelayState } from './modules/mail/index.ts';

export const USAGE = `Usage: npm run admin -- <command> [options] [--json]

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
  confirm-sso-domain --domain DOMAIN --token TOKEN
      Confirms an account's claim of an e-mail domain for single sign-on, once you have
      checked that the account owns it (docs/identity.md "Verifying a domain"). TOKEN: the
      verification token the account's administrator got when claiming it.
  outbox [--limit N] [--state S]          The mails the service has written, newest first, with
                                          their SMTP relay state (S: stored|pending|sent|failed),
                                          attempts and last error.
  snapshots                               The named snapshots (docs/sandbox.md), newest first.
  snapshot-save --name NAME [--signing-keys]
      Saves the whole state (every table and blob, the clock) under NAME.
  snapshot-restore --name NAME            Replaces the whole state by the snapshot's.
  snapshot-delete --name NAME             Deletes a named snapshot.
  audit verify                            Walks the audit log's hash chain from its anchor: exit 1
                                          naming each record edited, relinked or missing (docs/audit.md).

Every command is itself recorded in the audit log.
`;

/** A mistake on the command line: exit 2, with the usage. */
export class UsageError extends Error {}

/** What the commands work with: the use cases, the signing-key rotation (the signer's own), the snapshots. */
export interface AdminBackend {
  admin: AdminUse;
  rotateSigningKey(): Promise<RotationView>;
  /** Single sign-on: the operator confirms a domain claim (src/modules/sso). */
  confirmSsoDomain(domain: string, token: string): Promise<SsoDomainRecord>;
  snapshots: Pick<SnapshotControl, 'save' | 'list' | 'restore' | 'remove'>;
  /** The audit log: each command runs as one audited change; `audit verify` (src/modules/audit). */
  auditLog: Pick<AuditLog, 'command' | 'verify'>;
}

/** What a command ends with: an exit code (0 done, 1 refused, 2 usage) and what it writes. */
export interface AdminResult {
  code: number;
  stdout: string;
  stderr: string;
}

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
  'password-stdin': { type: 'boolean' }, domain: { type: 'string' }, token: { type: 'string' }, 'owner-roles': { type: 'string' }, state: { type: 'string' }, 'signing-keys': { type: 'boolean' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
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


/** One snapshot, one line: name, when, size, what it holds. */
const snapshotLine = (i: SnapshotInfo) =>
  `${i.name}  ${i.createdAt}  ${i.bytes} bytes  ${i.tables.reduce((n, t) => n + t.rows, 0)} rows, ${i.blobs.count} blobs${i.signingKeys ? ', signing keys' : ''}`;

/** The arguments, checked: the command and its options (UsageError otherwise). Null: print the usage (help, or no command). */
export function parseAdminArgs(argv: string[]): { command: string; values: Values } | null {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    if (e instanceof TypeError && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS')) throw new UsageError(e.message);
    throw e;
  }
  const { values, positionals } = parsed;
  const command = positionals[0];
  if (values.help || !command) return null;
  // `audit verify`: the one command with a subcommand.
  if (command === 'audit' && positionals.length === 2) return { command: `audit ${positionals[1]}`, values };
  if (positionals.length > 1) throw new UsageError(`Unexpected argument ${positionals[1]}`);
  checkUsage(command, values);
  return { command, values };
}

/** Each command and the options it cannot run without. */
const REQUIRED: Record<string, readonly (keyof Values)[]> = {
  'create-account': ['name', 'owner'],
  users: [],
  subscriptions: ['account'],
  'create-subscription': ['account', 'name'],
  'add-role': ['account', 'email', 'role'],
  'reset-password': ['email'],
  'rotate-signing-key': [],
  'confirm-sso-domain': ['domain', 'token'],
  outbox: [],
  snapshots: [],
  'snapshot-save': ['name'],
  'snapshot-restore': ['name'],
  'snapshot-delete': ['name'],
  'audit verify': [],
};

/**
 * A usage mistake is told before anything is opened: an operator gets it at once (not after
 * the embedded database has loaded, nor through the running service's socket), and it
 * never waits for the database's lock. The commands check their values again as they use them.
 */
function checkUsage(command: string, values: Values): void {
  const required = REQUIRED[command];
  if (!required) throw new UsageError(`Unknown command ${command}`);
  for (const name of required) need(values, name);
  for (const name of ['limit', 'scans', 'tags', 'geo-images'] as const) count(values, name);
  rolesOption(values['owner-roles']);
  if (command === 'add-role') roleOption(values);
  if (command === 'outbox') stateOption(values);
}

function roleOption(values: Values): AdminAccountRole {
  const role = need(values, 'role');
  if (!(role in ADMIN_ACCOUNT_ROLES)) throw new UsageError(`--role must be one of ${Object.keys(ADMIN_ACCOUNT_ROLES).join(', ')}`);
  return role as AdminAccountRole;
}

function stateOption(values: Values): RelayState | undefined {
  const state = values.state;
  if (state !== undefined && !RELAY_STATES.includes(state)) throw new UsageError(`--state must be one of ${RELAY_STATES.join(', ')}`);
  return state as RelayState | undefined;
}

/** The verification as the command prints it: what was checked, then each problem found. */
function verificationText(v: Verification): string {
  const range = `records ${v.anchorSeq + 1}..${v.headSeq}${v.anchorSeq > 0 ? ` (anchor ${v.anchorSeq}: older ones deleted by retention)` : ''}`;
  if (v.ok) return `Audit chain intact: ${v.checked} records checked, ${range}.`;
  const lines = v.problems.map((p) => `  record ${p.seq}: ${p.problem}`);
  const more = v.problemCount > v.problems.length ? [`  … ${v.problemCount - v.problems.length} more`] : [];
  return [`AUDIT CHAIN BROKEN: ${v.problemCount} problem(s) in ${v.checked} records checked, ${range}:`, ...lines, ...more].join('\n');
}

/** A verification that found problems: exit 1 with what it printed. */
class AuditChainBroken extends Error {
  readonly written: string;
  constructor(written: string) {
    super('the audit chain is broken');
    this.written = written;
  }
}

/** Runs one parsed command against `backend`; `readStdin` is asked for the password of --password-stdin only. */
async function dispatch(command: string, values: Values, backend: AdminBackend, readStdin: () => Promise<string>): Promise<string> {
  const { admin } = backend;
  let written = '';
  const out = (json: unknown, text: string) => void (written += values.json ? `${JSON.stringify(json, null, 2)}\n` : `${text}\n`);
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
      const role = roleOption(values);
      const r = await admin.addAccountRole(need(values, 'account'), need(values, 'email'), role);
      out(r, `${values.email} is ${role} of ${values.account}${linkLine(r.setPasswordLink)}`);
      break;
    }
    case 'reset-password': {
      const r = await admin.resetPassword(need(values, 'email'));
      out(r, `The password of ${values.email} is forgotten and its refresh tokens ended.${linkLine(r.setPasswordLink)}`);
      break;
    }
    case 'rotate-signing-key': {
      const r = await backend.rotateSigningKey();
      out(r, `Signing with ${r.kid} from now on; retiring: ${r.retiring.map((k) => `${k.kid} at ${k.retiresAt}`).join(', ') || 'none'}`);
      break;
    }
    case 'confirm-sso-domain': {
      const d = await backend.confirmSsoDomain(need(values, 'domain'), need(values, 'token'));
      out({ accountId: d.accountId, domain: d.domain, verifiedAt: d.verifiedAt }, `${d.domain} is verified for the account ${d.accountId}: its users can sign in with the account's identity provider.`);
      break;
    }
    case 'outbox': {
      const mails = await admin.outbox(count(values, 'limit', 20)!, stateOption(values));
      out(mails, mails.map((m) => `${m.sentAt.toISOString()}  to ${m.to}  ${m.subject}\n${relayLine(m.relay)}\n${m.text}\n`).join('\n') || '(no mail)');
      break;
    }
    case 'snapshots': {
      const list = await backend.snapshots.list();
      out(list, list.map(snapshotLine).join('\n') || '(no snapshot)');
      break;
    }
    case 'snapshot-save': {
      const info = await backend.snapshots.save(need(values, 'name'), { signingKeys: Boolean(values['signing-keys']) });
      out(info, `Saved ${snapshotLine(info)}`);
      break;
    }
    case 'snapshot-restore': {
      const info = await backend.snapshots.restore(need(values, 'name'));
      out(info, `Restored ${snapshotLine(info)}`);
      break;
    }
    case 'snapshot-delete': {
      out(await backend.snapshots.remove(need(values, 'name')), `Deleted snapshot ${values.name}`);
      break;
    }
    case 'audit verify': {
      const v = await backend.auditLog.verify();
      out(v, verificationText(v));
      if (!v.ok) throw new AuditChainBroken(written);
      break;
    }
    default:
      throw new UsageError(`Unknown command ${command}`);
  }
  return written;
}

/** A failure as the command reports it: a usage mistake (2, with the usage), a refusal (1, its message), else null (a bug: the caller prints it whole). */
export function adminFailure(e: unknown, hint = ''): AdminResult | null {
  if (e instanceof UsageError) return { code: 2, stdout: '', stderr: `scanbase admin: ${e.message}\n\n${USAGE}` };
  if (e instanceof ConfigError || e instanceof DomainError) return { code: 1, stdout: '', stderr: `scanbase admin: ${e.message}${hint}\n` };
  return null;
}

/** One command, parsed and run: what the command line prints and its exit code. */
export async function executeAdmin(
  parsed: { command: string; values: Values },
  backend: AdminBackend,
  readStdin: () => Promise<string>,
): Promise<AdminResult> {
  return backend.auditLog.command(parsed.command, async () => {
    try {
      return { code: 0, stdout: await dispatch(parsed.command, parsed.values, backend, readStdin), stderr: '' };
    } catch (e) {
      if (e instanceof AuditChainBroken) return { code: 1, stdout: e.written, stderr: 'scanbase admin: the audit chain is broken\n' };
      const failure = adminFailure(e);
      if (failure) return failure;
      throw e;
    }
  });
}
