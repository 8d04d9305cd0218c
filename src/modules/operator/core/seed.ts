// The seed document (CONTRACT §3): users, accounts with owners and account roles,
// subscriptions. Idempotent: objects are matched by fixed id, e-mail or name, and
// applying the same document twice changes nothing.
import { eventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { DomainError, invalidInput } from '../../../core/errors.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { PasswordHasher } from '../../../core/ports/crypto.ts';
import { sha256Hex } from '../../../core/crypto/digest.ts';
import type { AccountRole, Repos } from '../../../core/ports/repositories.ts';
import type { AccountsRepos } from '../../accounts/index.ts';
import type { WholeStore } from '../../../core/ports/store-slices.ts';
import { endEverySession, type OauthRepos } from '../../oauth/index.ts';
import './events.ts';
import './errors.ts';

export type { SeedAccount, SeedAccountExtension, SeedDocument, SeedSubscription, SeedUser } from '../../../core/ports/seed.ts';
import type { SeedAccountExtension, SeedDocument } from '../../../core/ports/seed.ts';

export interface SeedResult {
  users: { email: string; id: string }[];
  accounts: { name: string; id: string; subscriptions: { name: string; id: string }[] }[];
}


/** Applies a seed document under the 'seed' lock; applying it twice changes nothing. */
export type ApplySeed = (doc: SeedDocument) => Promise<SeedResult>;

export function createSeeder(deps: {
  // Reads nothing outside its transaction, but that transaction is the whole store in
  // practice: users, accounts, subscriptions, events, the 'seed' lock, and through the
  // extensions any module's tables (roles, groups…). Listing them would be a fake narrowing.
  /** The seeder is a deliberate whole-store user: a seed document and its extensions touch every kind of row. */
  store: WholeStore<Repos & AccountsRepos & OauthRepos>;
  clock: Clock;
  ids: Ids;
  hasher: PasswordHasher;
  extensions?: readonly SeedAccountExtension[];
}): ApplySeed {
  const { store, clock, ids, hasher } = deps;
  const extensions = deps.extensions ?? [];
  // Each seed password's hash, made before the transaction (argon2 takes tens of ms of CPU:
  // inside the transaction it would hold the database's connection meanwhile) and kept for
  // the next application (every reset re-applies SEED_FILE: its users are new rows again).
  const hashes = new Map<string, string>();
  const hashKey = (email: string, password: string) => `${email.toLowerCase()}\n${sha256Hex(password)}`;

  return async function applySeed(doc: SeedDocument): Promise<SeedResult> {
    const now = clock.now();
    const users = doc.users ?? [];
    const emails = new Set<string>();
    for (const u of users) {
      const key = u.email.toLowerCase();
      if (emails.has(key)) throw invalidInput(`The user ${u.email} appears twice`, { email: u.email });
      emails.add(key);
    }

    for (const u of users) {
      if (u.password === undefined) continue;
      const key = hashKey(u.email, u.password);
      if (!hashes.has(key)) hashes.set(key, await hasher.hash(u.password));
    }

    return store.transaction(async (repos) => {
      // Nodes starting together apply the same SEED_FILE: one at a time, so the later ones
      // find every object the first created (matched by id, e-mail or name) and change nothing.
      await repos.locks.exclusive(['seed']);
      const result: SeedResult = { users: [], accounts: [] };
      for (const u of users) {
        // UUIDs compare case-insensitively in the database: normalise, so re-applying is a no-op.
        const id = u.id?.toLowerCase();
        const byId = id ? await repos.users.byId(id) : null;
        if (byId && byId.email.toLowerCase() !== u.email.toLowerCase()) {
          throw invalidInput(`The id ${id} belongs to another user than ${u.email}`, { email: u.email, userId: id });
        }
        const existing = byId ?? (await repos.users.byEmail(u.email));
        let passwordHash = existing?.passwordHash ?? null;
        if (u.password !== undefined) {
          const prepared = hashes.get(hashKey(u.email, u.password))!;
          // A stored hash of the same password stays (applying twice changes nothing); checking
          // one made by another process is the only argon2 work left inside the transaction.
          const same = passwordHash !== null && (passwordHash === prepared || (await hasher.verify(passwordHash, u.password)));
          if (!same) passwordHash = prepared;
        }
        if (existing) {
          if (id && existing.id !== id) {
            throw invalidInput(`The user ${u.email} already exists with another id`, { email: u.email });
          }
          const patch = { firstName: u.firstName, lastName: u.lastName, company: u.company, title: u.title, passwordHash };
          if (differs(existing, patch)) {
            await repos.users.update(existing.id, patch, now);
            // A password the seed changes ends the user's sessions, as any other password change does.
            if (passwordHash !== existing.passwordHash) await endEverySession(repos, existing.id, now);
            await repos.events.publish(eventOf('user.seeded', null, subjectOf('user', existing.id), { userId: existing.id, created: false }), now);
          }
          result.users.push({ email: existing.email, id: existing.id });
        } else {
          const created = await repos.users.insert(
            {
              id: id ?? ids.uuid(),
              email: u.email,
              firstName: u.firstName ?? '',
              lastName: u.lastName ?? '',
              company: u.company ?? '',
              title: u.title ?? '',
              passwordHash,
              invitedBy: null,
              invitedAt: null,
            },
            now,
          );
          await repos.events.publish(eventOf('user.seeded', null, subjectOf('user', created.id), { userId: created.id, created: true }), now);
          result.users.push({ email: created.email, id: created.id });
        }
      }

      const userIdOf = async (email: string): Promise<string> => {
        const u = await repos.users.byEmail(email);
        if (!u) throw new DomainError('not-found', 'user-email-not-found', `No user with e-mail ${email}`, { email });
        return u.id;
      };

      for (const a of doc.accounts ?? []) {
        const ownerId = await userIdOf(a.owner);
        const fixedId = a.id?.toLowerCase();
        const existing = (fixedId ? await repos.accounts.byId(fixedId) : null) ?? (await repos.accounts.byName(a.name));
        if (fixedId && existing && existing.id !== fixedId) {
          throw invalidInput(`The account ${a.name} already exists with another id`, { accountId: fixedId });
        }
        let accountId: string;
        if (existing) {
          accountId = existing.id;
          if (differs(existing, { name: a.name, ownerId })) await repos.accounts.update(accountId, { name: a.name, ownerId }, now);
        } else {
          const created = await repos.accounts.insert(
            { id: fixedId ?? ids.uuid(), name: a.name, ownerId, createdBy: ownerId },
            now,
          );
          accountId = created.id;
        }

        // Account roles: the union of the lists each e-mail appears in.
        const roles = new Map<string, Set<AccountRole>>();
        const add = (email: string, role?: AccountRole) => {
          const key = email.toLowerCase();
          if (!roles.has(key)) roles.set(key, new Set());
          if (role) roles.get(key)!.add(role);
        };
        add(a.owner);
        for (const e of a.administrators ?? []) add(e, 'administrator');
        for (const e of a.projectManagers ?? []) add(e, 'projectManager');
        for (const e of a.projectListers ?? []) add(e, 'projectLister');
        for (const e of a.members ?? []) add(e);
        for (const [email, set] of roles) {
          const userId = await userIdOf(email);
          const current = await repos.accounts.member(accountId, userId);
          if (current && current.roles.length === set.size && current.roles.every((r) => set.has(r))) continue;
          await repos.accounts.upsertMember({
            accountId,
            userId,
            roles: [...set],
            invitedBy: current?.invitedBy ?? (userId === ownerId ? null : ownerId),
            invitedAt: current?.invitedAt ?? now,
          });
        }

        const subs: { name: string; id: string }[] = [];
        const existingSubs = await repos.subscriptions.listByAccount(accountId);
        for (const s of a.subscriptions ?? []) {
          const subId = s.id?.toLowerCase();
          const fields = {
            name: s.name,
            isTrial: s.isTrial ?? false,
            isVa: s.isVa ?? false,
            isActive: s.isActive ?? true,
            scanCapacity: s.scanCapacity ?? 500,
            tagCapacity: s.tagCapacity ?? 100_000,
            geoImageCapacity: s.geoImageCapacity ?? 500,
            start: s.start ? instant(s.start, 'start') : null,
            end: s.end ? instant(s.end, 'end') : null,
            inviteAccountOwnerInNewProjects: s.inviteAccountOwnerInNewProjects ?? false,
          };
          const match = existingSubs.find((e) => (subId ? e.id === subId : e.name === s.name));
          if (match) {
            if (differs(match, fields)) await repos.subscriptions.update(match.id, fields, now);
            subs.push({ name: s.name, id: match.id });
          } else {
            if (subId && (await repos.subscriptions.byId(subId))) {
              throw invalidInput(`The subscription id ${subId} belongs to another account`, { subscriptionId: subId });
            }
            const created = await repos.subscriptions.insert(
              { id: subId ?? ids.uuid(), accountId, ...fields },
              now,
            );
            subs.push({ name: s.name, id: created.id });
          }
        }

        const extra: Record<string, unknown> = {};
        for (const ext of extensions) Object.assign(extra, await ext(repos, { id: accountId, seed: a, userIdOf }));
        // Members, subscriptions, roles and groups may all have changed: every cache of the account goes.
        await repos.events.publish(eventOf('account.seeded', accountId, subjectOf('account', accountId), { accountId }), now);
        result.accounts.push({ name: a.name, id: accountId, subscriptions: subs, ...extra });
      }
      return result;
    });
  };
}

/**
 * A date-time the schema accepted but JavaScript cannot represent (a leap second) is
 * refused, and so is a UTC year outside 1-9999, which the two engines store differently
 * (PGlite refuses year 0, node-postgres writes it as 1 BC).
 */
function instant(value: string, field: string): Date {
  const d = new Date(value);
  const year = d.getUTCFullYear();
  if (Number.isNaN(d.getTime()) || year < 1 || year > 9999) {
    throw invalidInput(`${field} is not a representable date-time`, { field, value });
  }
  return d;
}

/** True when a defined field of `patch` differs from `current` (dates by instant). */
function differs(current: object, patch: Record<string, unknown>): boolean {
  const cur = current as Record<string, unknown>;
  return Object.entries(patch).some(([k, v]) => {
    if (v === undefined) return false;
    const c = cur[k];
    if (v instanceof Date || c instanceof Date) {
      return !(v instanceof Date && c instanceof Date && v.getTime() === c.getTime());
    }
    return c !== v;
  });
}
