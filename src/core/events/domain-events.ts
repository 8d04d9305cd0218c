// Typed domain events: every state change says what happened, in the transaction that
// made it (src/core/ports/events.ts). Cache invalidation, mail and webhooks consume them;
// no use case names a cache scope or a consumer.
//
// An event's `subject` orders it: consumers that need order (webhook deliveries) keep
// the events of one subject in the order they were written. `accountId` is the account
// whose administrators may receive it (null for system events, which no webhook sees).
//
// Data carries ids and small facts, never a secret (no invitation token, no password
// hash) and never a document (the event travels in a NOTIFY payload, under 8000 bytes):
// a consumer that needs more reads it, with the reader's permissions.
import { api1IdOf } from '../ids/api1-id.ts';
import type { AccountRole } from '../ports/account-roles.ts';

/** A project in both id forms (API 2 UUID, API 1 id) and its account; every project event's data starts with it. */
export interface ProjectIds {
  accountId: string;
  projectId: string;
  projectApi1Id: string;
}
/** The name the webhooks module reads project events' data by. */
export type ProjectEventData = ProjectIds;

export const projectIds = (accountId: string, projectId: string): ProjectIds => ({ accountId, projectId, projectApi1Id: api1IdOf(projectId) });

/**
 * The events of the modules under src/modules: each module's core adds its own types here by
 * declaration merging (`declare module '…/core/events/domain-events.ts' { interface
 * ModuleEventData { 'annotation.created': {…} } }`), and its contract gives their
 * invalidation rows (src/modules/contract.ts; src/module-list.ts checks none is missing).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the modules' declaration merging
export interface ModuleEventData {}

/** Each event type and the data it carries (ids are UUIDs; API 1 ids where the API has them). */
export interface DomainEventData extends ModuleEventData {
  // The service.
  /** The signing keys changed (rotation): every node reloads them. */
  'signing-keys.rotated': Record<string, never>;
  /** The operator reset the service (every table emptied): every cache on every node is dropped. */
  'service.reset': Record<string, never>;
  /**
   * Never written: delivered by a node's store to its own listeners when its LISTEN
   * connection came back after a drop (events of other nodes may have been missed), so
   * caches drop everything. Consumers that read the outbox table ignore it.
   */
  'events.missed': Record<string, never>;
  // account.seeded: src/modules/operator/core/events.ts.
  /** The seed created or changed a user (profile or password). */
  'user.seeded': { userId: string; created: boolean };

  // Accounts and their users (subscriptions: src/modules/accounts/core/events.ts; a declined
  // invitation and the one-time links' events: src/modules/users/core/events.ts). SSO and SCIM
  // publish these too, and the webhooks deliver them.
  /** A user (new to the platform or not) was invited to the account; pending until he accepts (the link itself is never in an event). */
  'user.invited': { userId: string; invitedBy: string; roles: AccountRole[] };
  /** A user became a member of the account: he accepted its invitation. */
  'user.added': { userId: string; invitedBy: string; roles: AccountRole[] };
  /** A member's account roles changed. */
  'user.roles-changed': { userId: string; roles: AccountRole[] };
  /** A user left the account (and its groups and projects), or the account withdrew his pending invitation. */
  'user.removed': { userId: string };
  /** The administration command forgot the user's password and ended every session of his. */
  'user.password-cleared': { userId: string };
  // user.signed-out-everywhere: the oauth module's (src/modules/oauth/core/events.ts).

  // Projects, work zones and members: src/modules/projects/core/events.ts,
  // src/modules/workzones/core/events.ts, src/modules/members/core/events.ts.

  // Files and tag lists: src/modules/files/core/events.ts, src/modules/tags/core/events.ts.

  // Webhooks: src/modules/webhooks/core/events.ts.
}

export type DomainEventType = keyof DomainEventData;
/** The event types declared here (their invalidation rows are in invalidation.ts). */
export type KernelEventType = Exclude<DomainEventType, keyof ModuleEventData>;

/** An event as a use case publishes it. */
export type DomainEvent = {
  [K in DomainEventType]: { type: K; accountId: string | null; subject: string; data: DomainEventData[K] };
}[DomainEventType];

/** An event as it was written: with its id and the time of the change. */
export type StoredDomainEvent = DomainEvent & { id: string; occurredAt: Date };

/** The event of one type (for consumers that switch on `type`). */
export type DomainEventOf<K extends DomainEventType> = Extract<DomainEvent, { type: K }>;

/** `project:<id>`, `tag-list:<id>`…: the subject of an event about one object. */
export const subjectOf = (kind: string, id: string): string => `${kind}:${id}`;

/** A typed event (the type checker matches `data` to `type`). */
export function eventOf<K extends DomainEventType>(type: K, accountId: string | null, subject: string, data: DomainEventData[K]): DomainEvent {
  return { type, accountId, subject, data } as DomainEvent;
}

/** The types whose data starts with the project's ids. */
export type ProjectEventType = { [K in DomainEventType]: DomainEventData[K] extends ProjectIds ? K : never }[DomainEventType];

/** An event about a project or an object in it: the project's ids (both forms) and account are filled in. */
export function projectEventOf<K extends ProjectEventType>(
  type: K,
  project: { id: string; accountId: string },
  subject: string,
  data: Omit<DomainEventData[K], keyof ProjectIds>,
): DomainEvent {
  return { type, accountId: project.accountId, subject, data: { ...projectIds(project.accountId, project.id), ...data } } as DomainEvent;
}
