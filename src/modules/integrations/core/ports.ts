// The integrations module's ports: its repository (src/modules/integrations/postgres) and the
// third parties it talks to (src/modules/integrations/adapters), free of SQL and HTTP.

export type AccountKonektSyncStrategy = 'CONFIG_ON_PROJECT' | 'BOTH_WAY' | 'UPDATES_ONLY_FROM_KONEKT';
export type ProjectKonektSyncStrategy = 'BOTH_WAY' | 'UPDATES_ONLY_FROM_KONEKT';
export type IntegrationType = 'AUTODESK' | 'NEWFORMA_KONEKT' | 'PROCORE';
export const INTEGRATION_TYPES: readonly IntegrationType[] = ['AUTODESK', 'NEWFORMA_KONEKT', 'PROCORE'];

export interface Stamp {
  createdAt: Date;
  createdBy: string | null;
  updatedAt: Date;
  updatedBy: string | null;
}

export interface KonektProject {
  id: string;
  name: string;
}

/** A Konekt hub configured on an account; `token` null: disconnected. */
export interface AccountKonektRecord extends Stamp {
  id: string;
  accountId: string;
  konektId: string;
  name: string;
  beta: boolean;
  token: string | null;
  allowCreateNewUsersOnHub: boolean;
  syncStrategy: AccountKonektSyncStrategy;
  konektProjects: KonektProject[];
}

export interface ProjectKonektRecord extends Stamp {
  projectId: string;
  hubId: string;
  konektProjectId: number;
  allowInviteUsers: boolean;
  syncStrategy: ProjectKonektSyncStrategy;
}

export interface ProjectAutodeskRecord extends Stamp {
  projectId: string;
  autodeskHubId: string;
  autodeskProjectId: string;
}

export interface AutodeskHub {
  autodeskId: string;
  name: string;
  projects: { autodeskId: string; name: string }[];
}

/** Who the user is at Autodesk and what they reach there (the AutodeskConnection schema). */
export interface AutodeskProfile {
  email: string | null;
  userName: string | null;
  firstName: string | null;
  lastName: string | null;
  hubs: AutodeskHub[];
}

export interface AutodeskConnectionRecord extends AutodeskProfile {
  userId: string;
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  connectedAt: Date;
}

export interface AutodeskStateRecord {
  stateHash: string;
  userId: string;
  redirectUri: string;
  expiresAt: Date;
}

/** pending: initialised, not yet created at the third party; created: `url` set; failed: `failure` says why (re-initialised by a new request). */
export type IntegrationLinkState = 'pending' | 'created' | 'failed';

export interface IntegrationLinkRecord {
  annotationId: string;
  projectId: string;
  integrationType: IntegrationType;
  url: string | null;
  state: IntegrationLinkState;
  failure: string | null;
  createdAt: Date;
  createdBy: string | null;
}

/** What the third party is told of a link's annotation. */
export interface LinkedAnnotation {
  number: number;
  title: string;
  description: string | null;
  annotationType: string;
  createdBy: string | null;
}

/** A pending link a node has claimed (its lease ends at `claimedUntil`), with its annotation. */
export interface ClaimedLink {
  annotationId: string;
  projectId: string;
  accountId: string;
  integrationType: IntegrationType;
  /** This attempt included. */
  attempts: number;
  claimedUntil: Date;
  annotation: LinkedAnnotation;
}

/** How an attempt ended: created, failed for good, or to be tried again at `nextAttemptAt`. */
export type LinkOutcome =
  | { state: 'created'; url: string; externalId: string }
  | { state: 'failed'; failure: string }
  | { state: 'pending'; nextAttemptAt: Date; failure: string };

export interface IntegrationsRepo {
  accountKonekts(accountId: string): Promise<AccountKonektRecord[]>;
  /** Up to `limit` stored tokens not in the sealed form (src/core/crypto/secret-box.ts). */
  plainTokens(limit: number): Promise<PlainToken[]>;
  /** Replaces a plain token by its sealed form, unless it changed since it was read (false then). */
  replaceToken(t: PlainToken, sealed: string): Promise<boolean>;
  accountKonekt(accountId: string, id: string): Promise<AccountKonektRecord | null>;
  accountKonektByHub(accountId: string, konektId: string): Promise<AccountKonektRecord | null>;
  insertAccountKonekt(r: AccountKonektRecord): Promise<void>;
  /** Writes every field but the id, the account and the creation stamp. */
  updateAccountKonekt(r: AccountKonektRecord): Promise<void>;
  removeAccountKonekt(id: string): Promise<void>;

  /** The project Konekt configurations of the account's projects linked to this hub. */
  projectKonektsOfHub(accountId: string, hubId: string): Promise<ProjectKonektRecord[]>;
  projectKonekt(projectId: string): Promise<ProjectKonektRecord | null>;
  /** Inserts; false when the project has one already. */
  insertProjectKonekt(r: ProjectKonektRecord): Promise<boolean>;
  updateProjectKonekt(r: ProjectKonektRecord): Promise<void>;
  removeProjectKonekt(projectId: string): Promise<boolean>;

  projectAutodesk(projectId: string): Promise<ProjectAutodeskRecord | null>;
  insertProjectAutodesk(r: ProjectAutodeskRecord): Promise<boolean>;
  updateProjectAutodesk(r: ProjectAutodeskRecord): Promise<void>;
  removeProjectAutodesk(projectId: string): Promise<boolean>;

  autodeskConnection(userId: string): Promise<AutodeskConnectionRecord | null>;
  /** The users among these who have an Autodesk connection. */
  autodeskConnected(userIds: string[]): Promise<Set<string>>;
  upsertAutodeskConnection(r: AutodeskConnectionRecord): Promise<void>;
  removeAutodeskConnection(userId: string): Promise<boolean>;

  insertAutodeskState(r: AutodeskStateRecord): Promise<void>;
  /** Deletes and returns the state (single use); null when unknown. */
  takeAutodeskState(stateHash: string): Promise<AutodeskStateRecord | null>;
  pruneAutodeskStates(now: Date): Promise<number>;

  links(projectId: string): Promise<IntegrationLinkRecord[]>;
  /** Inserts pending links; a failed link of the same annotation and type is made pending again, any other is kept. */
  insertLinks(links: IntegrationLinkRecord[]): Promise<void>;
  /**
   * Claims up to `limit` pending links due at `now` whose lease (if any) has ended: one
   * statement, so two nodes never claim the same link at once; each claim counts an attempt
   * and holds the link until `leaseUntil`.
   */
  claimLinks(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedLink[]>;
  /** Writes an attempt's outcome, unless the claim's lease was taken over meanwhile (false then). */
  settleLink(link: ClaimedLink, outcome: LinkOutcome): Promise<boolean>;
  /** Replaces a user's Autodesk tokens after a refresh, unless they changed since `previousAccess` was read (false then). */
  replaceAutodeskTokens(userId: string, previousAccess: string, next: { accessToken: string; refreshToken: string | null; expiresAt: Date | null }): Promise<boolean>;
}

/** The module's repositories, as every executor of the store carries them. */
/** A token kept in plain text (written before tokens were sealed): where it is, and its value. */
export interface PlainToken {
  column: 'konekt-token' | 'autodesk-access-token' | 'autodesk-refresh-token';
  /** The hub's id (konekt-token) or the user's (autodesk-*). */
  rowId: string;
  value: string;
}

export interface IntegrationsRepos {
  integrations: IntegrationsRepo;
}

/** A third party's failure as the core knows it: not configured or unreachable (503), or a refusal of what it was given (400). */
export class ThirdPartyError extends Error {
  readonly reason: 'unavailable' | 'refused';
  constructor(reason: 'unavailable' | 'refused', message: string) {
    super(message);
    this.reason = reason;
  }
}

/** What Konekt tells of the hub a token opens (docs/integrations.md "Konekt"). */
export interface KonektHub {
  id: string;
  name: string;
  beta: boolean;
  projects: KonektProject[];
}

/** Konekt's API (KONEKT_API_URL); null when not configured. */
export interface KonektClient {
  /** The hub the token opens; ThirdPartyError 'refused' when Konekt refuses the token. */
  hub(token: string): Promise<KonektHub>;
  /** Creates a project on the hub; its Konekt id. */
  createProject(token: string, name: string): Promise<number>;
  /** Creates an issue on the hub's project for an annotation; Konekt's id of it. `key` makes a repeated request create nothing more. */
  createIssue(token: string, konektProjectId: number, issue: ThirdPartyIssue, key: string): Promise<string>;
  /** Where a person opens the hub's project on Konekt. */
  projectLink(hubId: string, konektProjectId: number): string;
  issueLink(hubId: string, konektProjectId: number, issueId: string): string;
  hubLink(hubId: string): string;
}

export interface AutodeskTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresInSeconds: number | null;
}

/** Autodesk's OAuth and data APIs (AUTODESK_API_URL with its client); null when not configured. */
export interface AutodeskClient {
  /** The address of Autodesk's sign-in page, coming back to `redirectUri` with `code` and `state`. */
  authorizeUrl(state: string, redirectUri: string): string;
  /** Exchanges the sign-in's code; ThirdPartyError 'refused' when Autodesk refuses it. */
  exchangeCode(code: string, redirectUri: string): Promise<AutodeskTokens>;
  /** The user's profile and the hubs and projects they reach. */
  profile(accessToken: string): Promise<AutodeskProfile>;
  /** New tokens for a refresh token (Autodesk's are single use: the answer carries the next one). */
  refresh(refreshToken: string): Promise<AutodeskTokens>;
  /** Creates an issue in the Autodesk project for an annotation; Autodesk's id of it. */
  createIssue(accessToken: string, projectId: string, issue: ThirdPartyIssue, key: string): Promise<string>;
  projectLink(hubId: string, projectId: string): string;
  issueLink(hubId: string, projectId: string, issueId: string): string;
}

/** What an annotation becomes at the third party. */
export interface ThirdPartyIssue {
  title: string;
  description: string;
  /** Where it is seen in Scanbase (the project's annotation). */
  link: string;
}
