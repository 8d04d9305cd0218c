// Copying a work zone (vendor copyWorkzone): 202 at once, then a background job copies
// the zone's subtree and its members into a new project or under a zone of an existing
// one, in one transaction, and tells the caller by e-mail when it is done or failed (in the
// transaction that records the job's end and publishes job.finished).
import type { Files } from '../../files/index.ts';
import { DomainError, invalidInput, notFound } from '../../../core/errors.ts';
import { type EntityRef, isUuid, refValue } from '../../../core/ids/urn.ts';
import { findByRef } from '../../../core/ids/refs.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { FilesRepos } from '../../../core/ports/file-repositories.ts';
import type { RolesRepos } from '../../roles/index.ts';
import { api1IdOf } from '../../../core/ids/api1-id.ts';
import type { JobRecord } from '../../../core/ports/job-handler.ts';
import type { MailRepos, SendMail } from '../../mail/index.ts';
import type { Permission } from '../../../core/permissions/catalog.ts';
import { requirePermission, type Actor, type Authorizer } from '../../../core/permissions/authorizer.ts';
import type { JobHandler, JobRunner } from '../../jobs/index.ts';
import { insertProjectRows, lockProjectMembership, type ProjectAccess, requiredName, subscriptionNotActive, type ProjectsRepos } from '../../projects/index.ts';
import { projectEventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { JobsRepos } from '../../jobs/index.ts';
import type { MembersRepos } from '../../members/index.ts';
import type { WorkzonesRepos } from './ports.ts';
import { COPY_JOB } from './copy-job.ts';
import './events.ts';
import './errors.ts';
import type { AccountsRepos } from '../../accounts/index.ts';

export interface CopyInput {
  destinationName: string;
  destinationProjectRef?: EntityRef | null;
  destinationWorkzoneRef?: EntityRef | null;
  destinationSubscriptionRef?: EntityRef | null;
}

/** What a copy's requester sees of it (our extension: the vendor only mails the outcome). */
export interface CopyStatus {
  jobId: string;
  state: JobRecord['state'];
  /** When done: where the copy is and what it holds. */
  result: CopyResult | null;
  /** When failed: the reason the failure e-mail gives. */
  error: string | null;
}

interface CopyPayload {
  userId: string;
  accountId: string;
  sourceProjectId: string;
  sourceWorkzoneId: string;
  destinationName: string;
  destinationProjectId: string | null;
  destinationWorkzoneId: string | null;
  destinationSubscriptionId: string;
}

/** What a copy job answers (its job's result). */
interface CopyResult {
  destinationProjectId: string;
  workzoneId: string;
  copiedWorkzones: number;
  copiedFiles: number;
  skippedMembers: string[];
}


const SOURCE_NEEDS: Permission[] = ['workzone:workzones:read', 'workzone:reality-data:read', 'workzone:cad-model:read'];
const DESTINATION_NEEDS: Permission[] = ['workzone:workzones:write', 'workzone:reality-data:write', 'workzone:cad-model:write'];

/** Work-zone copy: the request (a job) and its job handler. */
export interface WorkzoneCopy {
  /** The copy job's handler, registered with the job runner. */
  handler: JobHandler;
  /** Checks what it can at once (403/404/400), then queues the copy; answers the job id. */
  requestCopy(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, workzoneRef: EntityRef, input: CopyInput): Promise<string>;
  /** Ours: a copy's state, for the user who asked for it only (404 `job-not-found` to anyone else). */
  copyStatus(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, workzoneRef: EntityRef, jobId: string): Promise<CopyStatus>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const WORKZONE_COPY_STORE = storeUseOf<Repos & ProjectsRepos & FilesRepos & AccountsRepos & WorkzonesRepos & MembersRepos & RolesRepos & JobsRepos>()({ reads: ['subscriptions', 'workzones', 'jobs'], writes: ['accounts', 'events', 'files', 'jobs', 'locks', 'members', 'projects', 'roles', 'subscriptions', 'users', 'workzones'] });

export function createWorkzoneCopy(deps: {
  store: SliceOf<typeof WORKZONE_COPY_STORE, Repos & ProjectsRepos & FilesRepos & AccountsRepos & WorkzonesRepos & MembersRepos & RolesRepos & JobsRepos>;
  clock: Clock;
  ids: Ids;
  authorizer: Authorizer;
  access: ProjectAccess;
  jobs: JobRunner;
  sendMail: SendMail;
  publicUrl: string;
  urn: (type: 'project' | 'workzone', id: string) => string;
  /** Copies the files of the copied zones (the files module), last in the copy's transaction; answers how many. */
  copyFiles: Files['copyFiles'];
}): WorkzoneCopy {
  const { clock, ids, access, sendMail } = deps;
  const store = sliceOf(deps.store, WORKZONE_COPY_STORE);

  async function notify(repos: Pick<Repos & MailRepos, 'outbox' | 'users'>, userId: string, subject: string, text: string) {
    const user = await repos.users.byId(userId);
    if (user) await sendMail(repos, { to: user.email, subject, text, links: [] });
  }

  const handler: JobHandler = {
    async run(job: JobRecord) {
      const p = job.payload as unknown as CopyPayload;
      const now = clock.now();
      // The caller's permissions in the source as they are now (read before the transaction:
      // on PGlite the outer handle waits for the transaction): the files copied are those he
      // may download, per category and per zone, not every file of the subtree.
      const source = await access.project(
        { userId: p.userId }, { type: 'account', uuid: p.accountId }, { type: 'project', uuid: p.sourceProjectId }, { record: false },
      );
      return store.transaction(async (repos): Promise<CopyResult> => {
        const zones = await repos.workzones.listByProject(p.sourceProjectId);
        const subtree = new Set(await repos.workzones.subtree(p.sourceWorkzoneId));
        if (!subtree.size) throw new DomainError('not-found', 'workzone-not-found', 'The source work zone no longer exists');
        const ordered = zones.filter((z) => subtree.has(z.id)); // parents come before children
        const mapping = new Map<string, string>();
        let destinationProjectId = p.destinationProjectId;
        if (!destinationProjectId) {
          // A new project whose root is the copied zone.
          const account = await repos.accounts.byId(p.accountId);
          const subscription = await repos.subscriptions.byId(p.destinationSubscriptionId);
          if (!account || !subscription) throw new DomainError('not-found', 'subscription-not-found', 'The subscription no longer exists');
          if (!subscription.isActive) throw subscriptionNotActive(subscription);
          destinationProjectId = ids.uuid();
          const rootId = ids.uuid();
          await insertProjectRows(repos, {
            id: destinationProjectId, rootId, accountId: p.accountId, accountOwnerId: account.ownerId, subscription,
            ownerId: p.userId, name: p.destinationName, description: '', location: null, spatialReference: null, now,
          });
          mapping.set(p.sourceWorkzoneId, rootId);
        } else {
          await lockProjectMembership(repos, destinationProjectId);
          const parent = await repos.workzones.byRef(destinationProjectId, { uuid: p.destinationWorkzoneId! });
          if (!parent) throw new DomainError('not-found', 'workzone-not-found', 'The destination work zone no longer exists');
          const id = ids.uuid();
          const source = ordered[0]!;
          await repos.workzones.insert({
            id, projectId: destinationProjectId, parentId: parent.id, name: p.destinationName, description: source.description,
            coverBlobName: null, createdAt: now, createdBy: p.userId,
          });
          await repos.members.inheritAccess(destinationProjectId, parent.id, id);
          mapping.set(p.sourceWorkzoneId, id);
        }
        for (const z of ordered) {
          if (mapping.has(z.id)) continue;
          const id = ids.uuid();
          const parentId = mapping.get(z.parentId!)!;
          await repos.workzones.insert({
            id, projectId: destinationProjectId, parentId, name: z.name, description: z.description, coverBlobName: null,
            createdAt: now, createdBy: p.userId,
          });
          await repos.members.inheritAccess(destinationProjectId, parentId, id);
          mapping.set(z.id, id);
        }
        // Members of the copied zones keep their role on the copies (skipped where they hold another role).
        const skipped: string[] = [];
        for (const m of await repos.members.accessList(p.sourceProjectId)) {
          const reached = m.workzoneIds.filter((z) => subtree.has(z)).map((z) => mapping.get(z)!);
          if (!reached.length) continue;
          const existing = await repos.members.member(destinationProjectId, m.memberType, m.memberId);
          if (existing && existing.roleId !== m.roleId) {
            skipped.push(`${m.memberType} ${m.memberId}`);
            continue;
          }
          if (!existing) {
            await repos.members.upsertMember(
              { projectId: destinationProjectId, memberType: m.memberType, memberId: m.memberId, roleId: m.roleId, expiresAt: m.expiresAt },
              p.userId,
              now,
            );
          }
          const below = new Set<string>();
          for (const z of reached) for (const d of await repos.workzones.subtree(z)) below.add(d);
          await repos.members.grantAccess(destinationProjectId, m.memberType, m.memberId, [...below]);
        }
        const copiedFiles = await deps.copyFiles(repos, {
          accountId: p.accountId, sourceProjectId: p.sourceProjectId, destinationProjectId, zones: mapping, userId: p.userId, now,
          sourcePermissions: (z) => source.workzone(z),
        });
        const workzoneId = mapping.get(p.sourceWorkzoneId)!;
        await repos.events.publish(projectEventOf('workzone.copied', { id: destinationProjectId, accountId: p.accountId }, subjectOf('workzone', workzoneId), {
          sourceProjectId: p.sourceProjectId, sourceProjectApi1Id: api1IdOf(p.sourceProjectId), sourceWorkzoneId: p.sourceWorkzoneId,
          workzoneId, newProject: !p.destinationProjectId, copiedWorkzones: mapping.size, copiedFiles,
        }), now);
        return { destinationProjectId, workzoneId, copiedWorkzones: mapping.size, copiedFiles, skippedMembers: skipped };
      });
    },
    accountOf: (job) => (job.payload as unknown as CopyPayload).accountId,
    /** The requester's mail commits with job.finished (and is written once, by the node that ran the copy). */
    async finished(repos, job, outcome) {
      const p = job.payload as unknown as CopyPayload;
      if (outcome.state === 'failed') {
        await notify(repos, p.userId, `Copy of work zone failed: ${p.destinationName}`, `The copy "${p.destinationName}" failed: ${outcome.error}`);
        return;
      }
      const result = outcome.result as CopyResult;
      await notify(
        repos,
        p.userId,
        `Copy of work zone finished: ${p.destinationName}`,
        `The copy "${p.destinationName}" is ready (${result.copiedWorkzones} work zones, ${result.copiedFiles} files).\n` +
          `Project: ${deps.urn('project', result.destinationProjectId)}\nWork zone: ${deps.urn('workzone', result.workzoneId)}\n` +
          (result.skippedMembers.length ? `Members not copied (they hold another role there): ${result.skippedMembers.length}\n` : ''),
      );
    },
  };

  return {
    handler,
    /** Checks what it can at once (403/404/400), then queues the copy; answers the job id. */
    /**
     * The state of a copy, for the user who asked for it only, through its source project
     * and zone (the project's usual visibility applies); any other job, or another user's,
     * is 404 `job-not-found` (a job id says nothing about jobs one did not start).
     */
    async copyStatus(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, workzoneRef: EntityRef, jobId: string): Promise<CopyStatus> {
      const source = await access.project(actor, accountRef, projectRef);
      const zone = await store.repos.workzones.byRef(source.project.id, workzoneRef);
      if (!zone) throw notFound('workzone', refValue(workzoneRef));
      const job = isUuid(jobId) ? await store.repos.jobs.byId(jobId.toLowerCase()) : null;
      const p = job?.payload as Partial<CopyPayload> | undefined;
      if (!job || job.kind !== COPY_JOB || job.createdBy !== actor.userId || p?.sourceProjectId !== source.project.id || p.sourceWorkzoneId !== zone.id) {
        throw notFound('job', jobId);
      }
      return {
        jobId: job.id,
        state: job.state,
        result: job.state === 'done' ? (job.result as CopyResult) : null,
        error: job.state === 'failed' ? job.lastError : null,
      };
    },
    async requestCopy(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, workzoneRef: EntityRef, input: CopyInput): Promise<string> {
      const source = await access.project(actor, accountRef, projectRef);
      const zone = await store.repos.workzones.byRef(source.project.id, workzoneRef);
      if (!zone) throw notFound('workzone', refValue(workzoneRef));
      requirePermission(source.workzone(zone.id), SOURCE_NEEDS, 'copy-workzone-forbidden');
      const destinationName = requiredName(input.destinationName, 'destinationName');
      if (input.destinationWorkzoneRef && !input.destinationProjectRef) {
        throw invalidInput('destinationWorkzone needs destinationProject', { field: 'destinationWorkzone' });
      }
      if (input.destinationSubscriptionRef && input.destinationProjectRef) {
        throw invalidInput('destinationSubscription is only for a new project', { field: 'destinationSubscription' });
      }
      let destinationProjectId: string | null = null;
      let destinationWorkzoneId: string | null = null;
      let subscriptionId = source.project.subscriptionId;
      if (input.destinationProjectRef) {
        const dest = await access.project(actor, accountRef, input.destinationProjectRef);
        const destZone = input.destinationWorkzoneRef
          ? await store.repos.workzones.byRef(dest.project.id, input.destinationWorkzoneRef)
          : await store.repos.workzones.byRef(dest.project.id, { uuid: dest.project.rootWorkzoneId });
        if (!destZone) throw notFound('workzone', input.destinationWorkzoneRef ? refValue(input.destinationWorkzoneRef) : dest.project.rootWorkzoneId);
        requirePermission(dest.workzone(destZone.id), DESTINATION_NEEDS, 'copy-workzone-forbidden');
        destinationProjectId = dest.project.id;
        destinationWorkzoneId = destZone.id;
      } else {
        requirePermission(source.account.permissions, 'account:projects:create', 'copy-workzone-forbidden');
        if (input.destinationSubscriptionRef) {
          const ref = input.destinationSubscriptionRef;
          const s = await findByRef(store.repos.subscriptions, ref);
          if (!s || s.accountId !== source.account.account.id) throw notFound('subscription', refValue(ref));
          subscriptionId = s.id;
        }
        const s = (await store.repos.subscriptions.byId(subscriptionId))!;
        if (!s.isActive) throw subscriptionNotActive(s);
      }
      const subjects = [subjectOf('project', source.project.id), ...(destinationProjectId ? [subjectOf('project', destinationProjectId)] : [])];
      const runner = deps.jobs;
      const id = await store.transaction(async (repos) => {
        await repos.locks.exclusive(subjects);
        if ((await repos.jobs.activeOn(subjects)).length) {
          throw new DomainError('conflict', 'copy-in-progress', 'A copy is already in progress on the source or destination project');
        }
        const payload: CopyPayload = {
          userId: actor.userId, accountId: source.account.account.id, sourceProjectId: source.project.id, sourceWorkzoneId: zone.id,
          destinationName, destinationProjectId, destinationWorkzoneId, destinationSubscriptionId: subscriptionId,
        };
        return runner.enqueue(repos, { kind: COPY_JOB, payload: payload as unknown as Record<string, unknown>, subjects, createdBy: actor.userId });
      });
      runner.kick();
      return id;
    },
  };
}
