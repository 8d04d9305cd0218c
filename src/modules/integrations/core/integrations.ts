// Integrations with third parties (vendor "Integrations", "Konekt", "Autodesk", BETA;
// docs/integrations.md): an account's Konekt hubs, a project's Konekt and Autodesk
// configurations, the caller's Autodesk connection, and integration links on annotations.
//
// Permissions (the vendor's descriptions, spec rule 8): `account:integrations:read|write` for
// the account's hubs (owner and administrators); `project:integrations:read|write` for a
// project's configurations and `project:annotations:create-integration-link` for links (held
// by whoever has `workzone:annotations:write` on the root work zone); the Autodesk connection
// is the caller's own (no permission). Konekt and Autodesk are reached through the ports
// KonektClient and AutodeskClient: null (not configured) or not answering, an operation that
// needs them answers 503 `integration-unavailable`; the records' reads and writes never do.
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import { eventOf, projectEventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { DomainError, invalidInput, notFound } from '../../../core/errors.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import { refUuid } from '../../../core/ids/refs.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { SecretBox } from '../../../core/crypto/secret-box.ts';
import { openStoredToken } from './stored-token.ts';
import { requirePermission, type Actor, type AccountScope, type Authorizer } from '../../../core/permissions/authorizer.ts';
import type { ProjectAccess, ProjectScope } from '../../projects/index.ts';
import type { Annotations } from '../../annotations/index.ts';
import type {
  AccountKonektRecord, AccountKonektSyncStrategy, AutodeskClient, AutodeskConnectionRecord, IntegrationLinkRecord, IntegrationType,
  IntegrationsRepos, KonektClient, ProjectAutodeskRecord, ProjectKonektRecord, ProjectKonektSyncStrategy,
} from './ports.ts';
import { callThirdParty, configured } from './third-party.ts';
import { AUTODESK_STATE_TTL_SECONDS, autodeskCallbackUrl, checkRedirectUri, hashState, projectSyncStrategy, STATE_BYTES } from './rules.ts';
import './events.ts';
import './errors.ts';

export interface AccountKonektView {
  integration: AccountKonektRecord;
  /** The account's projects configured with this hub. */
  linkedProjects: ProjectKonektRecord[];
  link: string;
}

export interface ProjectIntegrationView<R> {
  integration: R;
  link: string;
}

export interface ProjectIntegrationsView {
  konekt: ProjectIntegrationView<ProjectKonektRecord> | null;
  autodesk: ProjectIntegrationView<ProjectAutodeskRecord> | null;
}

export interface KonektHubOptions {
  allowCreateNewUsersOnHub?: boolean | undefined;
  syncStrategy?: AccountKonektSyncStrategy | undefined;
}

export interface ProjectKonektInput {
  hubId: string;
  /** null: a new project is created on the hub (Konekt must be reachable). */
  konektProjectId: number | null;
  allowInviteUsers: boolean;
  /** null or undefined: the hub's strategy (BOTH_WAY when the hub leaves it to the project). */
  syncStrategy: ProjectKonektSyncStrategy | null | undefined;
}

export interface ProjectAutodeskInput {
  autodeskHubId: string;
  autodeskProjectId: string;
}

/** Annotation id → the integration types initialised for it. */
export type CreatedLinks = Map<string, IntegrationType[]>;

export interface Integrations {
  getAccountIntegrations(actor: Actor, a: EntityRef): Promise<{ accountId: string; konekt: AccountKonektView[] }>;
  createAccountIntegrationKonekt(actor: Actor, a: EntityRef, token: string, options: KonektHubOptions | null): Promise<AccountKonektView>;
  getKonektAccountIntegration(actor: Actor, a: EntityRef, ref: EntityRef): Promise<AccountKonektView>;
  updateKonektAccountIntegration(actor: Actor, a: EntityRef, ref: EntityRef, options: KonektHubOptions): Promise<AccountKonektView>;
  deleteKonektAccountIntegration(actor: Actor, a: EntityRef, ref: EntityRef): Promise<void>;
  connectKonektAccountIntegration(actor: Actor, a: EntityRef, ref: EntityRef, token: string): Promise<AccountKonektView>;
  disconnectKonektAccountIntegration(actor: Actor, a: EntityRef, ref: EntityRef): Promise<void>;

  getProjectIntegrations(actor: Actor, a: EntityRef, p: EntityRef): Promise<ProjectIntegrationsView>;
  getKonektProjectIntegration(actor: Actor, a: EntityRef, p: EntityRef): Promise<ProjectIntegrationView<ProjectKonektRecord>>;
  /** create: 409 when the project has one; update: 404 when it has none. */
  putKonektProjectIntegration(actor: Actor, a: EntityRef, p: EntityRef, input: ProjectKonektInput, mode: 'create' | 'update'): Promise<ProjectIntegrationView<ProjectKonektRecord>>;
  deleteKonektProjectIntegration(actor: Actor, a: EntityRef, p: EntityRef): Promise<void>;
  getAutodeskProjectIntegration(actor: Actor, a: EntityRef, p: EntityRef): Promise<ProjectIntegrationView<ProjectAutodeskRecord>>;
  putAutodeskProjectIntegration(actor: Actor, a: EntityRef, p: EntityRef, input: ProjectAutodeskInput, mode: 'create' | 'update'): Promise<ProjectIntegrationView<ProjectAutodeskRecord>>;
  deleteAutodeskProjectIntegration(actor: Actor, a: EntityRef, p: EntityRef): Promise<void>;

  getAutodeskConnection(actor: Actor): Promise<AutodeskConnectionRecord>;
  deleteAutodeskConnection(actor: Actor): Promise<void>;
  /** Where to send the caller's browser: Autodesk's sign-in page, coming back to the callback. */
  autodeskConnectionUrl(actor: Actor, redirectUri: string): Promise<string>;
  /** The sign-in's return (no caller: the state is the proof); where to send the browser on. */
  completeAutodeskConnection(state: string, code: string | undefined, error: string | undefined): Promise<string>;
  pruneAutodeskStates(): Promise<number>;
  /** Seals the tokens still kept in plain text (rows written before tokens were sealed); how many. */
  sealPlainTokens(): Promise<number>;

  /** Initialises the links (pending: url null); null annotations: every annotation the caller reads. */
  createAnnotationIntegrationLinks(actor: Actor, a: EntityRef, p: EntityRef, annotationRefs: EntityRef[] | null, types: IntegrationType[]): Promise<CreatedLinks>;
}


/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const INTEGRATIONS_STORE = storeUseOf<Repos & IntegrationsRepos>()({ reads: ['integrations'], writes: ['events', 'integrations', 'locks'] });

export function createIntegrations(deps: {
  store: SliceOf<typeof INTEGRATIONS_STORE, Repos & IntegrationsRepos>
  clock: Clock;
  ids: Ids;
  authorizer: Authorizer;
  access: ProjectAccess;
  annotations: Annotations;
  konekt: KonektClient | null;
  autodesk: AutodeskClient | null;
  /** Seals the tokens kept in the database (docs/integrations.md "Tokens at rest"). */
  secrets: SecretBox;
  publicUrl: string;
}): Integrations {
  const { clock, ids, authorizer, access, annotations, konekt, autodesk, secrets, publicUrl } = deps;
  const store = sliceOf(deps.store, INTEGRATIONS_STORE);
  const repo = () => store.repos.integrations;

  async function accountScope(actor: Actor, a: EntityRef, write: boolean): Promise<AccountScope> {
    const scope = await authorizer.account(actor, a);
    if (write) requirePermission(scope.permissions, 'account:integrations:write', 'manage-account-integrations-forbidden');
    else requirePermission(scope.permissions, 'account:integrations:read', 'view-account-integrations-forbidden');
    return scope;
  }

  async function projectScope(actor: Actor, a: EntityRef, p: EntityRef, write: boolean): Promise<ProjectScope> {
    const scope = await access.project(actor, a, p, { record: false });
    if (write) requirePermission(scope.permissions, 'project:integrations:write', 'manage-project-integrations-forbidden');
    else requirePermission(scope.permissions, 'project:integrations:read', 'view-project-integrations-forbidden');
    return scope;
  }

  async function hubIn(scope: AccountScope, ref: EntityRef): Promise<AccountKonektRecord> {
    const id = refUuid(ref);
    const found = id ? await repo().accountKonekt(scope.account.id, id) : null;
    if (!found) throw notFound('newforma-konekt-hub', refValue(ref));
    return found;
  }

  async function hubView(integration: AccountKonektRecord): Promise<AccountKonektView> {
    return {
      integration,
      linkedProjects: await repo().projectKonektsOfHub(integration.accountId, integration.konektId),
      link: konekt ? konekt.hubLink(integration.konektId) : '',
    };
  }

  const konektView = (integration: ProjectKonektRecord) => ({ integration, link: konekt ? konekt.projectLink(integration.hubId, integration.konektProjectId) : '' });
  const autodeskView = (integration: ProjectAutodeskRecord) => ({
    integration, link: autodesk ? autodesk.projectLink(integration.autodeskHubId, integration.autodeskProjectId) : '',
  });

  const openToken = (stored: string) => openStoredToken(secrets, stored);

  const refusedToken = (message: string) => new DomainError('invalid', 'integration-token-refused', `Konekt refused the token: ${message}`, { field: 'token' });
  const hubOf = (token: string) => callThirdParty('NEWFORMA_KONEKT', () => configured(konekt, 'NEWFORMA_KONEKT').hub(token), refusedToken);

  const accountEvent = (type: 'account-integration.created' | 'account-integration.updated' | 'account-integration.deleted', r: AccountKonektRecord) =>
    eventOf(type, r.accountId, subjectOf('newforma-konekt-hub', r.id), { accountId: r.accountId, integrationId: r.id, integration: 'NEWFORMA_KONEKT' });
  const connectionEvent = (r: AccountKonektRecord, connected: boolean) =>
    eventOf('account-integration.connection-changed', r.accountId, subjectOf('newforma-konekt-hub', r.id), {
      accountId: r.accountId, integrationId: r.id, integration: 'NEWFORMA_KONEKT', connected,
    });
  const projectEvent = (type: 'project-integration.created' | 'project-integration.updated' | 'project-integration.deleted', scope: ProjectScope, integration: 'NEWFORMA_KONEKT' | 'AUTODESK') =>
    projectEventOf(type, scope.project, subjectOf('project', scope.project.id), { integration });

  /** The hub's strategy for a project that names none (the vendor: "defaults from the hub configuration"). */
  async function defaultStrategy(scope: ProjectScope, hubId: string): Promise<ProjectKonektSyncStrategy> {
    const hub = await repo().accountKonektByHub(scope.project.accountId, hubId);
    return projectSyncStrategy(hub?.syncStrategy ?? null);
  }

  /** A project on the hub for `konektProjectId: null`: created on Konekt with the account's connected token for the hub. */
  async function konektProjectId(scope: ProjectScope, input: ProjectKonektInput): Promise<number> {
    if (input.konektProjectId !== null) return input.konektProjectId;
    const client = configured(konekt, 'NEWFORMA_KONEKT');
    const hub = await repo().accountKonektByHub(scope.project.accountId, input.hubId);
    if (!hub?.token) {
      throw invalidInput('konektProjectId null creates a project on the hub, which needs the hub connected on the account', { field: 'konektProjectId', hubId: input.hubId });
    }
    const token = await openToken(hub.token);
    return callThirdParty('NEWFORMA_KONEKT', () => client.createProject(token, scope.project.name), refusedToken);
  }

  return {
    async getAccountIntegrations(actor, a) {
      const scope = await accountScope(actor, a, false);
      const hubs = await repo().accountKonekts(scope.account.id);
      return { accountId: scope.account.id, konekt: await Promise.all(hubs.map(hubView)) };
    },

    async createAccountIntegrationKonekt(actor, a, token, options) {
      const scope = await accountScope(actor, a, true);
      const hub = await hubOf(token);
      const now = clock.now();
      const record: AccountKonektRecord = {
        id: ids.uuid(), accountId: scope.account.id, konektId: hub.id, name: hub.name, beta: hub.beta, token: await secrets.seal(token),
        allowCreateNewUsersOnHub: options?.allowCreateNewUsersOnHub ?? false, syncStrategy: options?.syncStrategy ?? 'CONFIG_ON_PROJECT',
        konektProjects: hub.projects, createdAt: now, createdBy: actor.userId, updatedAt: now, updatedBy: actor.userId,
      };
      await store.transaction(async (repos) => {
        await repos.locks.exclusive([`integrations:${scope.account.id}`]);
        if (await repos.integrations.accountKonektByHub(scope.account.id, hub.id)) {
          throw new DomainError('conflict', 'integration-already-exists', 'A configuration already exists with the same Konekt Hub', { konektId: hub.id });
        }
        await repos.integrations.insertAccountKonekt(record);
        await repos.events.publish(accountEvent('account-integration.created', record), now);
      });
      return hubView(record);
    },

    async getKonektAccountIntegration(actor, a, ref) {
      const scope = await accountScope(actor, a, false);
      return hubView(await hubIn(scope, ref));
    },

    async updateKonektAccountIntegration(actor, a, ref, options) {
      const scope = await accountScope(actor, a, true);
      const current = await hubIn(scope, ref);
      const now = clock.now();
      const updated: AccountKonektRecord = {
        ...current,
        allowCreateNewUsersOnHub: options.allowCreateNewUsersOnHub ?? current.allowCreateNewUsersOnHub,
        syncStrategy: options.syncStrategy ?? current.syncStrategy,
        updatedAt: now, updatedBy: actor.userId,
      };
      await store.transaction(async (repos) => {
        await repos.integrations.updateAccountKonekt(updated);
        await repos.events.publish(accountEvent('account-integration.updated', updated), now);
      });
      return hubView(updated);
    },

    async deleteKonektAccountIntegration(actor, a, ref) {
      const scope = await accountScope(actor, a, true);
      const current = await hubIn(scope, ref);
      await store.transaction(async (repos) => {
        await repos.integrations.removeAccountKonekt(current.id);
        await repos.events.publish(accountEvent('account-integration.deleted', current), clock.now());
      });
    },

    async connectKonektAccountIntegration(actor, a, ref, token) {
      const scope = await accountScope(actor, a, true);
      const current = await hubIn(scope, ref);
      const hub = await hubOf(token);
      if (hub.id !== current.konektId) {
        throw new DomainError('invalid', 'integration-token-refused', 'The token opens another Konekt hub than this integration\'s', {
          field: 'token', konektId: current.konektId,
        });
      }
      const now = clock.now();
      const updated: AccountKonektRecord = { ...current, token: await secrets.seal(token), name: hub.name, beta: hub.beta, konektProjects: hub.projects, updatedAt: now, updatedBy: actor.userId };
      await store.transaction(async (repos) => {
        await repos.integrations.updateAccountKonekt(updated);
        await repos.events.publish(connectionEvent(updated, true), now);
      });
      return hubView(updated);
    },

    async disconnectKonektAccountIntegration(actor, a, ref) {
      const scope = await accountScope(actor, a, true);
      const current = await hubIn(scope, ref);
      const now = clock.now();
      const updated: AccountKonektRecord = { ...current, token: null, updatedAt: now, updatedBy: actor.userId };
      await store.transaction(async (repos) => {
        await repos.integrations.updateAccountKonekt(updated);
        await repos.events.publish(connectionEvent(updated, false), now);
      });
    },

    async getProjectIntegrations(actor, a, p) {
      const scope = await projectScope(actor, a, p, false);
      const [k, ad] = await Promise.all([repo().projectKonekt(scope.project.id), repo().projectAutodesk(scope.project.id)]);
      return { konekt: k ? konektView(k) : null, autodesk: ad ? autodeskView(ad) : null };
    },

    async getKonektProjectIntegration(actor, a, p) {
      const scope = await projectScope(actor, a, p, false);
      const found = await repo().projectKonekt(scope.project.id);
      if (!found) throw notFound('konekt-project-integration', scope.project.id);
      return konektView(found);
    },

    async putKonektProjectIntegration(actor, a, p, input, mode) {
      const scope = await projectScope(actor, a, p, true);
      const current = await repo().projectKonekt(scope.project.id);
      if (mode === 'create' && current) throw new DomainError('conflict', 'integration-already-exists', 'A configuration already exists on this project', { integration: 'NEWFORMA_KONEKT' });
      if (mode === 'update' && !current) throw notFound('konekt-project-integration', scope.project.id);
      const now = clock.now();
      const record: ProjectKonektRecord = {
        projectId: scope.project.id, hubId: input.hubId, konektProjectId: await konektProjectId(scope, input), allowInviteUsers: input.allowInviteUsers,
        syncStrategy: input.syncStrategy ?? (await defaultStrategy(scope, input.hubId)),
        createdAt: current?.createdAt ?? now, createdBy: current ? current.createdBy : actor.userId, updatedAt: now, updatedBy: actor.userId,
      };
      await store.transaction(async (repos) => {
        if (mode === 'create') {
          if (!(await repos.integrations.insertProjectKonekt(record))) {
            throw new DomainError('conflict', 'integration-already-exists', 'A configuration already exists on this project', { integration: 'NEWFORMA_KONEKT' });
          }
        } else await repos.integrations.updateProjectKonekt(record);
        await repos.events.publish(projectEvent(mode === 'create' ? 'project-integration.created' : 'project-integration.updated', scope, 'NEWFORMA_KONEKT'), now);
      });
      return konektView(record);
    },

    async deleteKonektProjectIntegration(actor, a, p) {
      const scope = await projectScope(actor, a, p, true);
      await store.transaction(async (repos) => {
        if (!(await repos.integrations.removeProjectKonekt(scope.project.id))) throw notFound('konekt-project-integration', scope.project.id);
        await repos.events.publish(projectEvent('project-integration.deleted', scope, 'NEWFORMA_KONEKT'), clock.now());
      });
    },

    async getAutodeskProjectIntegration(actor, a, p) {
      const scope = await projectScope(actor, a, p, false);
      const found = await repo().projectAutodesk(scope.project.id);
      if (!found) throw notFound('autodesk-project-integration', scope.project.id);
      return autodeskView(found);
    },

    async putAutodeskProjectIntegration(actor, a, p, input, mode) {
      const scope = await projectScope(actor, a, p, true);
      const current = await repo().projectAutodesk(scope.project.id);
      if (mode === 'create' && current) throw new DomainError('conflict', 'integration-already-exists', 'A configuration already exists on this project', { integration: 'AUTODESK' });
      if (mode === 'update' && !current) throw notFound('autodesk-project-integration', scope.project.id);
      const now = clock.now();
      const record: ProjectAutodeskRecord = {
        projectId: scope.project.id, autodeskHubId: input.autodeskHubId, autodeskProjectId: input.autodeskProjectId,
        createdAt: current?.createdAt ?? now, createdBy: current ? current.createdBy : actor.userId, updatedAt: now, updatedBy: actor.userId,
      };
      await store.transaction(async (repos) => {
        if (mode === 'create') {
          if (!(await repos.integrations.insertProjectAutodesk(record))) {
            throw new DomainError('conflict', 'integration-already-exists', 'A configuration already exists on this project', { integration: 'AUTODESK' });
          }
        } else await repos.integrations.updateProjectAutodesk(record);
        await repos.events.publish(projectEvent(mode === 'create' ? 'project-integration.created' : 'project-integration.updated', scope, 'AUTODESK'), now);
      });
      return autodeskView(record);
    },

    async deleteAutodeskProjectIntegration(actor, a, p) {
      const scope = await projectScope(actor, a, p, true);
      await store.transaction(async (repos) => {
        if (!(await repos.integrations.removeProjectAutodesk(scope.project.id))) throw notFound('autodesk-project-integration', scope.project.id);
        await repos.events.publish(projectEvent('project-integration.deleted', scope, 'AUTODESK'), clock.now());
      });
    },

    async getAutodeskConnection(actor) {
      const found = await repo().autodeskConnection(actor.userId);
      if (!found) throw new DomainError('not-found', 'autodesk-connection-not-found', 'You have no connection to Autodesk', {});
      return found;
    },

    async deleteAutodeskConnection(actor) {
      await store.transaction(async (repos) => {
        if (!(await repos.integrations.removeAutodeskConnection(actor.userId))) {
          throw new DomainError('not-found', 'autodesk-connection-not-found', 'You have no connection to Autodesk', {});
        }
        await repos.events.publish(eventOf('autodesk-connection.changed', null, subjectOf('user', actor.userId), { userId: actor.userId, connected: false }), clock.now());
      });
    },

    async autodeskConnectionUrl(actor, redirectUri) {
      checkRedirectUri(redirectUri);
      const client = configured(autodesk, 'AUTODESK');
      const state = ids.secret(STATE_BYTES);
      await repo().insertAutodeskState({
        stateHash: hashState(state), userId: actor.userId, redirectUri, expiresAt: new Date(clock.now().getTime() + AUTODESK_STATE_TTL_SECONDS * 1000),
      });
      return client.authorizeUrl(state, autodeskCallbackUrl(publicUrl));
    },

    async completeAutodeskConnection(state, code, error) {
      const pending = await repo().takeAutodeskState(hashState(state));
      if (!pending || pending.expiresAt.getTime() <= clock.now().getTime()) {
        throw new DomainError('invalid', 'autodesk-sign-in-failed', 'This Autodesk sign-in is unknown, used or expired: start it again', { field: 'state' });
      }
      const back = (params: Record<string, string>) => {
        const url = new URL(pending.redirectUri);
        for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
        return url.toString();
      };
      if (error || !code) return back({ error: error ? error.slice(0, 100) : 'invalid_request' });
      const client = configured(autodesk, 'AUTODESK');
      const refused = (message: string) => new DomainError('invalid', 'autodesk-sign-in-failed', `Autodesk refused the sign-in: ${message}`, {});
      let record: AutodeskConnectionRecord;
      try {
        const tokens = await callThirdParty('AUTODESK', () => client.exchangeCode(code, autodeskCallbackUrl(publicUrl)), refused);
        const profile = await callThirdParty('AUTODESK', () => client.profile(tokens.accessToken), refused);
        const now = clock.now();
        record = {
          ...profile, userId: pending.userId, accessToken: await secrets.seal(tokens.accessToken),
          refreshToken: tokens.refreshToken === null ? null : await secrets.seal(tokens.refreshToken),
          expiresAt: tokens.expiresInSeconds === null ? null : new Date(now.getTime() + tokens.expiresInSeconds * 1000), connectedAt: now,
        };
      } catch (e) {
        // The browser goes back to the application with the reason (OAuth 2.0's error names).
        if (e instanceof DomainError && e.code === 'autodesk-sign-in-failed') return back({ error: 'access_denied' });
        if (e instanceof DomainError && e.code === 'integration-unavailable') return back({ error: 'temporarily_unavailable' });
        throw e;
      }
      await store.transaction(async (repos) => {
        await repos.integrations.upsertAutodeskConnection(record);
        await repos.events.publish(eventOf('autodesk-connection.changed', null, subjectOf('user', record.userId), { userId: record.userId, connected: true }), record.connectedAt);
      });
      return back({});
    },

    pruneAutodeskStates: () => repo().pruneAutodeskStates(clock.now()),

    async sealPlainTokens() {
      let sealed = 0;
      for (;;) {
        const batch = await repo().plainTokens(100);
        let replaced = 0;
        for (const t of batch) if (await repo().replaceToken(t, await secrets.seal(t.value))) replaced++;
        sealed += replaced;
        // A short batch was the last; a batch whose rows all changed meanwhile is left to the next run.
        if (batch.length < 100 || replaced === 0) return sealed;
      }
    },

    async createAnnotationIntegrationLinks(actor, a, p, annotationRefs, types) {
      const scope = await access.project(actor, a, p);
      requirePermission(scope.permissions, 'project:annotations:create-integration-link', 'create-integration-link-forbidden');
      const wanted = [...new Set(types)];
      // A type this service can reach only through a third party it is not configured for: the 503.
      if (wanted.includes('AUTODESK')) configured(autodesk, 'AUTODESK');
      if (wanted.includes('NEWFORMA_KONEKT')) configured(konekt, 'NEWFORMA_KONEKT');
      const readable = await annotations.listAnnotations(actor, a, p, { includeComments: false, includeAttachments: false });
      const byId = new Map(readable.map((v) => [v.annotation.id, v.annotation]));
      const chosen = annotationRefs === null ? readable.map((v) => v.annotation) : annotationRefs.map((ref) => {
        const found = byId.get(refUuid(ref) ?? '');
        if (!found) throw notFound('annotation', refValue(ref));
        return found;
      });
      // The prerequisites (the vendor's): the project configured for the third party; for
      // Autodesk, the annotation's author connected to Autodesk; for Konekt, the project's hub
      // connected on the account. Procore: this service has no Procore integration.
      const [k, ad, existing] = await Promise.all([repo().projectKonekt(scope.project.id), repo().projectAutodesk(scope.project.id), repo().links(scope.project.id)]);
      const konektReady = k ? Boolean((await repo().accountKonektByHub(scope.project.accountId, k.hubId))?.token) : false;
      const authors = ad ? await repo().autodeskConnected([...new Set(chosen.map((x) => x.createdBy).filter((x): x is string => x !== null))]) : new Set<string>();
      // A failed link is initialised again (its configuration may have been mended since).
      const have = new Set(existing.filter((l) => l.state !== 'failed').map((l) => `${l.annotationId}|${l.integrationType}`));
      const now = clock.now();
      const links: IntegrationLinkRecord[] = [];
      const created: CreatedLinks = new Map();
      for (const annotation of chosen) {
        for (const type of wanted) {
          const ready = type === 'NEWFORMA_KONEKT' ? konektReady : type === 'AUTODESK' ? Boolean(ad && annotation.createdBy && authors.has(annotation.createdBy)) : false;
          if (!ready || have.has(`${annotation.id}|${type}`)) continue;
          have.add(`${annotation.id}|${type}`);
          links.push({ annotationId: annotation.id, projectId: scope.project.id, integrationType: type, url: null, state: 'pending', failure: null, createdAt: now, createdBy: actor.userId });
          created.set(annotation.id, [...(created.get(annotation.id) ?? []), type]);
        }
      }
      if (links.length) {
        await store.transaction(async (repos) => {
          await repos.integrations.insertLinks(links);
          await repos.events.publish(projectEventOf('annotation-integration-links.created', scope.project, subjectOf('project', scope.project.id), {
            annotations: created.size, links: links.length,
          }), now);
        });
      }
      return created;
    },
  };
}
