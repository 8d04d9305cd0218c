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

export interface IntegrationLinkRecord {
  annotationId: string;
  projectId: string;
  integrationType: IntegrationType;
  url: string | null;
  createdAt: Date;
  createdBy: string | null;
}

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
  insertLinks(links: IntegrationLinkRecord[]): Promise<void>;
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
  /** Where a person opens the hub's project on Konekt. */
  projectLink(hubId: string, konektProjectId: number): string;
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
  projectLink(hubId: string, projectId: string): string;
}
