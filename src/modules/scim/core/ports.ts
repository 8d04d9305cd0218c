// What the SCIM module needs from persistence (the adapter: ../postgres/scim-repo.ts).
import type { AccountsRepos } from '../../accounts/index.ts';
import type { ProjectsRepos } from '../../projects/index.ts';
import type { GroupsRepos } from '../../groups/index.ts';
import type { MembersRepos } from '../../members/index.ts';
import type { OauthRepos } from '../../oauth/index.ts';
import type { Repos, Store } from '../../../core/ports/repositories.ts';
import type { SsoRepo } from '../../sso/index.ts';

export interface ScimTokenRecord {
  accountId: string;
  /** SHA-256 (hex) of the token, which is never stored. */
  tokenHash: string;
  createdBy: string | null;
  createdAt: Date;
}

/** A user of the account as SCIM sees him: a member (active), or one the IdP deactivated. */
export interface ScimUserView {
  id: string;
  email: string;
  /** The IdP's userName: the e-mail address unless the IdP set another. */
  userName: string;
  firstName: string;
  lastName: string;
  title: string;
  createdAt: Date;
  updatedAt: Date;
  /** A member of the account (or its owner): the user is active. */
  member: boolean;
  externalId: string | null;
}

export interface ScimRepo {
  token(accountId: string): Promise<ScimTokenRecord | null>;
  accountOfToken(tokenHash: string): Promise<string | null>;
  /** Sets the account's token, replacing the one before. */
  putToken(t: ScimTokenRecord): Promise<void>;
  removeToken(accountId: string): Promise<boolean>;

  /** The account's owner and members and its deactivated SCIM users, by e-mail. */
  users(accountId: string): Promise<ScimUserView[]>;
  user(accountId: string, userId: string): Promise<ScimUserView | null>;
  /** The account's user of a userName (case-insensitive). */
  userNamed(accountId: string, userName: string): Promise<ScimUserView | null>;
  /** Records the IdP's view of the user (externalId, active). */
  putUser(p: { accountId: string; userId: string; userName: string | null; externalId: string | null; active: boolean }, now: Date): Promise<void>;
  removeUser(accountId: string, userId: string): Promise<void>;

  /** The externalId of each of the account's groups that has one. */
  groupExternalIds(accountId: string): Promise<Map<string, string>>;
  putGroupExternalId(accountId: string, groupId: string, externalId: string | null): Promise<void>;
}

/** The store as the module's use cases see it: the kernel's repositories, the SSO module's (verified domains) and its own. */
/** The repositories the module's use cases reach: the kernel's, the SSO module's and its own. */
export type ScimRepos = Repos & ProjectsRepos & AccountsRepos & GroupsRepos & MembersRepos & OauthRepos & { sso: SsoRepo; scim: ScimRepo };
export type ScimStore = Store<ScimRepos>;
