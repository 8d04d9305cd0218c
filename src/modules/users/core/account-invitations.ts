// Joining an account is an invitation the user accepts (docs/security.md "Invitations"):
// inviting a user who is not a member (by bulk invite, or by adding him to a project by
// e-mail) records a pending invitation; he becomes a member, with its account roles, only
// when he accepts it: on the account page (/account) or API 2 after signing in, or by
// setting his first password from the invitation's link. Until then the account sees of
// him only what the inviter wrote (the address) and his id, he sees nothing of the account
// (it answers him 404), and his project grants wait for him.
//
// The caps: INVITE_MAX_PER_ACCOUNT_DAY new invitations per account per 24 hours (429
// too-many-invitations, the request undone), INVITE_MAILS_PER_RECIPIENT_DAY invitation mails
// per address per 24 hours from every account together (beyond them the invitation stands,
// without a mail: the recipient finds it on his account page).
import { eventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { DomainError, notFound } from '../../../core/errors.ts';
import { sha256Hex } from '../../../core/crypto/digest.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import { refUuid } from '../../../core/ids/refs.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { AccountRecord, AccountRole, Repos, UserRecord } from '../../../core/ports/repositories.ts';
import type { AccountInvitationRecord, UsersRepos } from './ports.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { MembersRepos } from '../../members/index.ts';
import type { MailRepos, SendMail } from '../../mail/index.ts';
import { ACCOUNT_ROLES } from '../../../core/permissions/account-roles.ts';
import { invitationMail } from './invitation-mails.ts';
import type { AccountMemberRecord, AccountsRepos } from '../../accounts/index.ts';

/** The set-password link of an invitation: its lifetime. */
export const INVITATION_SECONDS = 7 * 24 * 3600;
/** The window of the per-account and per-recipient caps. */
export const INVITE_WINDOW_SECONDS = 24 * 3600;

/** The invitation caps (INVITE_* settings, src/kernel-config.ts). */
export interface InviteLimits {
  /** Addresses one bulk-invite request (or one project-members request) may name. */
  maxPerRequest: number;
  /** New invitations one account may make per 24 hours. */
  maxPerAccountPerDay: number;
  /** Invitation mails one address receives per 24 hours, from every account together. */
  mailsPerRecipientPerDay: number;
}

export interface InviteDeps {
  ids: Ids;
  clock: Clock;
  sendMail: SendMail;
  publicUrl: string;
  limits: InviteLimits;
}

export const tooManyInvitations = (retryAfter: number, limit: number) =>
  new DomainError(
    'too-many',
    'too-many-invitations',
    `This account has sent its ${limit} invitations of the day (INVITE_MAX_PER_ACCOUNT_DAY); try again in ${retryAfter} seconds`,
    { retryAfter, limit },
    { 'retry-after': String(retryAfter) },
  );

/** A user as the inviting account sees him after an invitation: a member, or invited and pending. */
export type Invited =
  | { pending: false; user: UserRecord; member: AccountMemberRecord }
  | { pending: true; user: UserRecord; invitation: AccountInvitationRecord };

/**
 * What an account shows of a user whose invitation is pending: the address as the inviter
 * wrote it, his id, and the invitation's inviter and date; never his names, company or
 * title, which he gave elsewhere.
 */
export const pendingView = (user: UserRecord, inv: AccountInvitationRecord): UserRecord => ({
  ...user,
  email: inv.email,
  firstName: '',
  lastName: '',
  company: '',
  title: '',
  passwordHash: null,
  invitedBy: inv.invitedBy,
  invitedAt: inv.invitedAt,
});

const mergeRoles = (a: readonly AccountRole[], b: readonly AccountRole[]) => ACCOUNT_ROLES.filter((r) => a.includes(r) || b.includes(r));

/** Counts one new invitation against the account's daily cap, in the caller's transaction (429 past it). */
async function chargeAccount(repos: Pick<UsersRepos, 'counters'>, deps: InviteDeps, accountId: string, now: Date): Promise<void> {
  const max = deps.limits.maxPerAccountPerDay;
  const r = await repos.counters.charge(`invite-account:${accountId}`, 1, {
    now, windowEnd: new Date(now.getTime() + INVITE_WINDOW_SECONDS * 1000), max,
  });
  if (!r.charged) throw tooManyInvitations(Math.max(1, Math.ceil((r.windowEnd.getTime() - now.getTime()) / 1000)), max);
}

/** Whether the recipient may get one more invitation mail today (counted when so). */
async function mailAllowed(repos: Pick<UsersRepos, 'counters'>, deps: InviteDeps, email: string, now: Date): Promise<boolean> {
  const r = await repos.counters.charge(`invite-mail:${email.toLowerCase()}`, 1, {
    now, windowEnd: new Date(now.getTime() + INVITE_WINDOW_SECONDS * 1000), max: deps.limits.mailsPerRecipientPerDay,
  });
  return r.charged;
}

/**
 * Invites the user with this address (created, without a password, when unknown) to the
 * account with at least the given roles, in the caller's transaction. A member gets the
 * roles he misses, and no mail. A user already invited gets the roles added to his pending
 * invitation, and no second mail. Otherwise a pending invitation is recorded (counted
 * against the account's daily cap), published (`user.invited`) and mailed (within the
 * recipient's daily mail cap): a user without a password gets a set-password link that
 * also accepts it, one who can sign in is told to accept on his account page.
 */
export async function inviteToAccount(
  repos: Pick<Repos & AccountsRepos & MailRepos & UsersRepos, 'accountInvitations' | 'accounts' | 'counters' | 'events' | 'invitations' | 'outbox' | 'users'>,
  deps: InviteDeps,
  account: AccountRecord,
  inviterId: string,
  email: string,
  roles: AccountRole[],
): Promise<Invited> {
  const { ids, clock, sendMail, publicUrl } = deps;
  const now = clock.now();
  let user = await repos.users.byEmail(email);
  if (!user) {
    user = await repos.users.insert(
      { id: ids.uuid(), email, firstName: '', lastName: '', company: '', title: '', passwordHash: null, invitedBy: inviterId, invitedAt: now },
      now,
    );
  }
  const member = await repos.accounts.member(account.id, user.id);
  if (member) {
    const next: AccountMemberRecord = { ...member, roles: mergeRoles(member.roles, roles) };
    if (next.roles.length !== member.roles.length) {
      await repos.accounts.upsertMember(next);
      await repos.events.publish(eventOf('user.roles-changed', account.id, subjectOf('user', user.id), { userId: user.id, roles: next.roles }), now);
    }
    return { pending: false, user, member: next };
  }

  const current = await repos.accountInvitations.get(account.id, user.id);
  const invitation: AccountInvitationRecord = {
    accountId: account.id,
    userId: user.id,
    email,
    roles: mergeRoles(current?.roles ?? [], roles),
    invitedBy: current ? current.invitedBy : inviterId,
    invitedAt: current?.invitedAt ?? now,
  };
  if (current) {
    await repos.accountInvitations.put(invitation);
    if (invitation.roles.length !== current.roles.length) {
      await repos.events.publish(eventOf('user.roles-changed', account.id, subjectOf('user', user.id), { userId: user.id, roles: invitation.roles }), now);
    }
    return { pending: true, user, invitation };
  }

  await chargeAccount(repos, deps, account.id, now);
  await repos.accountInvitations.put(invitation);
  await repos.events.publish(eventOf('user.invited', account.id, subjectOf('user', user.id), { userId: user.id, invitedBy: inviterId, roles: invitation.roles }), now);
  if (await mailAllowed(repos, deps, user.email, now)) {
    const inviter = await repos.users.byId(inviterId);
    let setPasswordLink: { url: string; token: string } | undefined;
    if (!user.passwordHash) {
      const token = ids.secret(32);
      await repos.invitations.insert(
        { tokenHash: sha256Hex(token), userId: user.id, accountId: account.id, expiresAt: new Date(now.getTime() + INVITATION_SECONDS * 1000) },
        now,
      );
      setPasswordLink = { url: `${publicUrl}/invitations/${token}`, token };
    }
    await sendMail(repos, invitationMail({
      to: user.email,
      accountName: account.name,
      inviter: inviter ? `${inviter.firstName} ${inviter.lastName}`.trim() || inviter.email : '',
      publicUrl,
      setPasswordLink,
    }));
  }
  return { pending: true, user, invitation };
}

/**
 * Accepts the user's pending invitation to the account, in the caller's transaction: he
 * becomes a member with its roles (`user.added`). False when there was none.
 */
export async function joinAccount(repos: Pick<Repos & UsersRepos & AccountsRepos, 'accountInvitations' | 'accounts' | 'events'>, accountId: string, userId: string, now: Date): Promise<boolean> {
  const inv = await repos.accountInvitations.take(accountId, userId);
  if (!inv) return false;
  const member = await repos.accounts.member(accountId, userId);
  const roles = mergeRoles(member?.roles ?? [], inv.roles);
  await repos.accounts.upsertMember({
    accountId, userId, roles, invitedBy: member?.invitedBy ?? inv.invitedBy, invitedAt: member?.invitedAt ?? inv.invitedAt,
  });
  await repos.events.publish(eventOf('user.added', accountId, subjectOf('user', userId), { userId, invitedBy: inv.invitedBy ?? userId, roles }), now);
  return true;
}

/**
 * Withdraws a pending invitation (the account removes the invitee), in the caller's
 * transaction: the invitation and his project grants in the account go (`user.removed`).
 */
export async function withdrawInvitation(repos: Pick<Repos & UsersRepos & MembersRepos, 'accountInvitations' | 'events' | 'members'>, accountId: string, userId: string, now: Date): Promise<void> {
  if (!(await repos.accountInvitations.take(accountId, userId))) return;
  await repos.members.removeUserFromAccountProjects(accountId, userId);
  await repos.events.publish(eventOf('user.removed', accountId, subjectOf('user', userId), { userId }), now);
}

/** A pending invitation as its recipient sees it. */
export interface MyInvitation {
  accountId: string;
  accountName: string;
  roles: AccountRole[];
  /** Who invited him, as that user names himself (names, else e-mail); null when unknown. */
  invitedBy: string | null;
  invitedAt: Date;
}

/** The signed-in user's own pending invitations: list, accept, decline. */
export interface AccountInvitations {
  /** The caller's pending invitations, oldest first. */
  mine(userId: string): Promise<MyInvitation[]>;
  /** Accepts one: the caller becomes a member of the account. 404 account-not-found when he has no invitation to it. */
  accept(userId: string, accountRef: EntityRef): Promise<void>;
  /** Declines one: the invitation and the project grants waiting with it go. 404 account-not-found when he has none. */
  decline(userId: string, accountRef: EntityRef): Promise<void>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const ACCOUNT_INVITATIONS_STORE = storeUseOf<Repos & UsersRepos & AccountsRepos & MembersRepos>()({ reads: ['accountInvitations', 'users'], writes: ['accountInvitations', 'accounts', 'events', 'members'] });

export function createAccountInvitations(deps: { store: SliceOf<typeof ACCOUNT_INVITATIONS_STORE, Repos & UsersRepos & AccountsRepos & MembersRepos>; clock: Clock }): AccountInvitations {
  const { clock } = deps;
  const store = sliceOf(deps.store, ACCOUNT_INVITATIONS_STORE);

  /** The account of one of the user's pending invitations; 404 as an unknown account otherwise (no other account shows). */
  async function invitedTo(repos: Pick<UsersRepos, 'accountInvitations'>, userId: string, ref: EntityRef): Promise<string> {
    const uuid = refUuid(ref)?.toLowerCase() ?? null;
    if (!uuid || !(await repos.accountInvitations.get(uuid, userId))) throw notFound('account', refValue(ref));
    return uuid;
  }

  return {
    async mine(userId) {
      const out: MyInvitation[] = [];
      for (const inv of await store.repos.accountInvitations.listForUser(userId)) {
        const inviter = inv.invitedBy ? await store.repos.users.byId(inv.invitedBy) : null;
        out.push({
          accountId: inv.accountId,
          accountName: inv.accountName,
          roles: inv.roles,
          invitedBy: inviter ? `${inviter.firstName} ${inviter.lastName}`.trim() || inviter.email : null,
          invitedAt: inv.invitedAt,
        });
      }
      return out;
    },

    async accept(userId, accountRef) {
      await store.transaction(async (repos) => {
        const accountId = await invitedTo(repos, userId, accountRef);
        await joinAccount(repos, accountId, userId, clock.now());
      });
    },

    async decline(userId, accountRef) {
      await store.transaction(async (repos) => {
        const accountId = await invitedTo(repos, userId, accountRef);
        await repos.accountInvitations.take(accountId, userId);
        await repos.members.removeUserFromAccountProjects(accountId, userId);
        await repos.events.publish(eventOf('user.invitation-declined', accountId, subjectOf('user', userId), { userId }), clock.now());
      });
    },
  };
}
