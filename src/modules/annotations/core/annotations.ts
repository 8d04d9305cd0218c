// Annotations (vendor "Annotation", BETA): notes and issues pinned at a point of a work zone,
// with assignees (members of the zone, mailed when assigned) and comments. docs/annotations.md.
//
// Permissions (the vendor's descriptions): `workzone:annotations:read` on the annotation's
// zone to see it (the project listing keeps only those zones), `workzone:annotations:write`
// there to create, change, delete or comment; a PUT that moves it needs write on both zones.
// A "Private note" is its author's alone (rules.ts visibleTo): to anyone else it does not exist.
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import { projectEventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { DomainError, invalidInput, notFound } from '../../../core/errors.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import { findByRef, refUuid } from '../../../core/ids/refs.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import { requirePermission, type Actor } from '../../../core/permissions/authorizer.ts';
import type { MailRepos, SendMail } from '../../mail/index.ts';
import type { MembersRepos } from '../../members/index.ts';
import { type ProjectAccess, type ProjectScope, requireMember } from '../../projects/index.ts';
import type { AnnotationCommentRecord, AnnotationFields, AnnotationIntegrationLink, AnnotationRecord, AnnotationsRepos } from './ports.ts';
import './events.ts';
import './errors.ts';
import { ANNOTATION_LIMITS, MAX_ANNOTATIONS_PER_PROJECT, checkFields, isZoneMember, newlyAssigned, visibleTo } from './rules.ts';
import { assignmentMail } from './assignment-mail.ts';
import type { WorkzonesRepos } from '../../workzones/index.ts';

/** An annotation with what its presenter needs: the account (URNs), its comments when asked. */
export interface AnnotationView {
  annotation: AnnotationRecord;
  accountId: string;
  /** null: not asked for (includeComments=false). */
  comments: AnnotationCommentRecord[] | null;
  /** null: not asked for (includeAttachments=false); attachments are not stored (docs/annotations.md). */
  attachments: [] | null;
  /** Its integration links (`url` null while pending at the third party, or failed; docs/integrations.md). */
  integrations: Omit<AnnotationIntegrationLink, 'annotationId'>[];
}

export interface AnnotationCommentView {
  comment: AnnotationCommentRecord;
  accountId: string;
}

/** What a create or an update gives: the fields, with the zone and the assignees as references. */
export interface AnnotationInput extends Omit<AnnotationFields, 'workzoneId' | 'assignedTo'> {
  /** Required on create; on update, undefined keeps the annotation's zone. */
  workzoneRef: EntityRef | undefined;
  assignedTo: EntityRef[];
  /** Blob names of attachments: not supported, a non-empty list is refused (docs/annotations.md). */
  attachments: string[];
}

export interface AnnotationReadOptions {
  includeComments: boolean;
  includeAttachments: boolean;
}

/** The annotations of a project (vendor getAnnotationsFromProject … createAnnotationComment). */
export interface Annotations {
  /** The annotations on the zones where the caller holds `workzone:annotations:read`, by number. */
  listAnnotations(actor: Actor, a: EntityRef, p: EntityRef, opts: AnnotationReadOptions): Promise<AnnotationView[]>;
  /** One annotation: `workzone:annotations:read` on its zone. */
  getAnnotation(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef, opts: AnnotationReadOptions): Promise<AnnotationView>;
  /** Creates one (`workzone:annotations:write` on the zone); 400 project-max-annotations past 3000 in the project. */
  createAnnotation(actor: Actor, a: EntityRef, p: EntityRef, input: AnnotationInput): Promise<AnnotationView>;
  /** PUT: overwrites every field (a missing optional one is null); newly assigned users are mailed. */
  updateAnnotation(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef, input: AnnotationInput): Promise<AnnotationView>;
  /** Deletes one, with its comments. */
  deleteAnnotation(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef): Promise<void>;
  /** Adds a comment (`workzone:annotations:write` on the zone). */
  createAnnotationComment(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef, description: string, attachments: string[]): Promise<AnnotationCommentView>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const ANNOTATIONS_STORE = storeUseOf<Repos & WorkzonesRepos & MembersRepos & AnnotationsRepos & MailRepos>()({ reads: ['annotations', 'members', 'users', 'workzones'], writes: ['annotations', 'events', 'locks', 'outbox', 'users', 'workzones'] });

export function createAnnotations(deps: {
  /** The kernel's repositories (users, members, workzones, locks, events, the outbox) and the module's. */
  store: SliceOf<typeof ANNOTATIONS_STORE, Repos & WorkzonesRepos & MembersRepos & AnnotationsRepos & MailRepos>;
  clock: Clock;
  ids: Ids;
  access: ProjectAccess;
  sendMail: SendMail;
  publicUrl: string;
}): Annotations {
  const { clock, ids, access, sendMail, publicUrl } = deps;
  const store = sliceOf(deps.store, ANNOTATIONS_STORE);
  const NONE: AnnotationReadOptions = { includeComments: false, includeAttachments: false };


  /** The annotation as the caller may know it: a private note of someone else's is not found. */
  async function annotationIn(scope: ProjectScope, ref: EntityRef): Promise<AnnotationRecord> {
    const id = refUuid(ref);
    const found = id ? await store.repos.annotations.byId(scope.project.id, id) : null;
    if (!found || !visibleTo(found, scope.actor.userId)) throw notFound('annotation', refValue(ref));
    return found;
  }

  async function zoneId(scope: ProjectScope, ref: EntityRef): Promise<string> {
    const w = await store.repos.workzones.byRef(scope.project.id, ref);
    if (!w) throw notFound('workzone', refValue(ref));
    return w.id;
  }

  async function views(scope: ProjectScope, list: AnnotationRecord[], opts: AnnotationReadOptions): Promise<AnnotationView[]> {
    const ids = list.map((x) => x.id);
    const comments = opts.includeComments && list.length ? await store.repos.annotations.comments(ids) : [];
    const links = new Map<string, AnnotationView['integrations']>();
    for (const l of await store.repos.annotations.integrationLinks(ids)) {
      const of = links.get(l.annotationId) ?? [];
      of.push({ type: l.type, url: l.url, status: l.status, failure: l.failure });
      links.set(l.annotationId, of);
    }
    return list.map((annotation) => ({
      annotation,
      accountId: scope.account.account.id,
      comments: opts.includeComments ? comments.filter((c) => c.annotationId === annotation.id) : null,
      attachments: opts.includeAttachments ? [] : null,
      integrations: links.get(annotation.id) ?? [],
    }));
  }

  /** The assignees as user ids: each an existing user who is a member of the zone (400 otherwise). */
  async function assignees(scope: ProjectScope, refs: EntityRef[], workzoneId: string): Promise<string[]> {
    const out: string[] = [];
    const now = clock.now();
    for (const ref of refs) {
      const user = await findByRef(store.repos.users, ref);
      const grants = user ? await store.repos.members.grantsOf(scope.project.id, user.id) : [];
      if (!user || !isZoneMember(user.id, scope.project.ownerId, grants, workzoneId, now)) {
        throw invalidInput(`assignedTo: ${refValue(ref)} is not a member of the work zone`, { field: 'assignedTo', user: refValue(ref) });
      }
      out.push(user.id);
    }
    return out;
  }

  function refuseAttachments(attachments: string[]): void {
    if (attachments.length) throw invalidInput('attachments are not supported by this service (docs/annotations.md)', { field: 'attachments' });
  }

  async function fieldsOf(scope: ProjectScope, input: AnnotationInput, workzoneId: string): Promise<AnnotationFields> {
    refuseAttachments(input.attachments);
    const { workzoneRef: _w, assignedTo: _a, attachments: _t, ...rest } = input;
    const fields: AnnotationFields = { ...rest, title: input.title.trim(), workzoneId, assignedTo: [] };
    checkFields({ ...fields, assignedTo: input.assignedTo.map(refValue) });
    return { ...fields, assignedTo: await assignees(scope, input.assignedTo, workzoneId) };
  }

  /** Mails and announces each newly assigned user, in the change's transaction. */
  async function assign(repos: Pick<Repos & WorkzonesRepos & MailRepos, 'events' | 'outbox' | 'users' | 'workzones'>, scope: ProjectScope, a: AnnotationRecord, userIds: string[], now: Date): Promise<void> {
    if (!userIds.length) return;
    const by = await repos.users.byId(scope.actor.userId);
    const zone = await repos.workzones.byRef(scope.project.id, { uuid: a.workzoneId });
    for (const userId of userIds) {
      const user = await repos.users.byId(userId);
      if (!user) continue;
      await sendMail(repos, assignmentMail({ to: user.email, annotation: a, project: scope.project, zoneName: zone?.name ?? '', by, publicUrl }));
      await repos.events.publish(
        projectEventOf('annotation.assigned', scope.project, subjectOf('annotation', a.id), { annotationId: a.id, workzoneId: a.workzoneId, userId }),
        now,
      );
    }
  }

  return {
    async listAnnotations(actor, a, p, opts) {
      const scope = await access.project(actor, a, p, { record: false });
      requireMember(scope);
      const all = await store.repos.annotations.list(scope.project.id);
      const readable = all.filter((x) => scope.workzone(x.workzoneId).has('workzone:annotations:read') && visibleTo(x, actor.userId));
      return views(scope, readable, opts);
    },

    async getAnnotation(actor, a, p, ref, opts) {
      const scope = await access.project(actor, a, p);
      requireMember(scope);
      const found = await annotationIn(scope, ref);
      requirePermission(scope.workzone(found.workzoneId), 'workzone:annotations:read', 'view-annotation-forbidden');
      return (await views(scope, [found], opts))[0]!;
    },

    async createAnnotation(actor, a, p, input) {
      const scope = await access.project(actor, a, p);
      if (!input.workzoneRef) throw invalidInput('workzoneId is required', { field: 'workzoneId' });
      const w = await zoneId(scope, input.workzoneRef);
      requirePermission(scope.workzone(w), 'workzone:annotations:write', 'create-annotation-forbidden');
      const fields = await fieldsOf(scope, input, w);
      const id = ids.uuid();
      const now = clock.now();
      const created = await store.transaction(async (repos) => {
        // One writer of the project's count and numbers at a time.
        await repos.locks.exclusive([`annotations:${scope.project.id}`]);
        if ((await repos.annotations.count(scope.project.id)) >= MAX_ANNOTATIONS_PER_PROJECT) {
          throw new DomainError('invalid', 'project-max-annotations',
            `A project holds at most ${MAX_ANNOTATIONS_PER_PROJECT} annotations`, { maxAnnotations: MAX_ANNOTATIONS_PER_PROJECT });
        }
        const record: AnnotationRecord = {
          ...fields, id, projectId: scope.project.id, number: await repos.annotations.nextNumber(scope.project.id),
          createdAt: now, createdBy: actor.userId, updatedAt: now, updatedBy: actor.userId,
        };
        await repos.annotations.insert(record);
        await repos.events.publish(
          projectEventOf('annotation.created', scope.project, subjectOf('annotation', id), { annotationId: id, workzoneId: w, annotationType: fields.annotationType }),
          now,
        );
        await assign(repos, scope, record, newlyAssigned([actor.userId], fields.assignedTo), now);
        return record;
      });
      return (await views(scope, [created], NONE))[0]!;
    },

    async updateAnnotation(actor, a, p, ref, input) {
      const scope = await access.project(actor, a, p);
      const current = await annotationIn(scope, ref);
      requirePermission(scope.workzone(current.workzoneId), 'workzone:annotations:write', 'update-annotation-forbidden');
      const w = input.workzoneRef ? await zoneId(scope, input.workzoneRef) : current.workzoneId;
      if (w !== current.workzoneId) requirePermission(scope.workzone(w), 'workzone:annotations:write', 'update-annotation-forbidden');
      const fields = await fieldsOf(scope, input, w);
      const now = clock.now();
      await store.transaction(async (repos) => {
        await repos.annotations.update(current.id, fields, actor.userId, now);
        await repos.events.publish(
          projectEventOf('annotation.updated', scope.project, subjectOf('annotation', current.id), {
            annotationId: current.id, workzoneId: w, annotationType: fields.annotationType,
          }),
          now,
        );
        const updated = { ...current, ...fields, updatedAt: now, updatedBy: actor.userId };
        await assign(repos, scope, updated, newlyAssigned([...current.assignedTo, actor.userId], fields.assignedTo), now);
      });
      return (await views(scope, [await annotationIn(scope, { type: 'annotation', uuid: current.id })], NONE))[0]!;
    },

    async deleteAnnotation(actor, a, p, ref) {
      const scope = await access.project(actor, a, p);
      const current = await annotationIn(scope, ref);
      requirePermission(scope.workzone(current.workzoneId), 'workzone:annotations:write', 'delete-annotation-forbidden');
      await store.transaction(async (repos) => {
        await repos.annotations.remove(current.id);
        await repos.events.publish(
          projectEventOf('annotation.deleted', scope.project, subjectOf('annotation', current.id), { annotationId: current.id, workzoneId: current.workzoneId }),
          clock.now(),
        );
      });
    },

    async createAnnotationComment(actor, a, p, ref, description, attachments) {
      const scope = await access.project(actor, a, p);
      const current = await annotationIn(scope, ref);
      requirePermission(scope.workzone(current.workzoneId), 'workzone:annotations:write', 'create-annotation-comment-forbidden');
      refuseAttachments(attachments);
      if (!description.trim()) throw invalidInput('description must not be blank', { field: 'description' });
      if (description.length > ANNOTATION_LIMITS.commentChars) {
        throw invalidInput(`description holds at most ${ANNOTATION_LIMITS.commentChars} characters`, { field: 'description' });
      }
      const comment: AnnotationCommentRecord = { id: ids.uuid(), annotationId: current.id, description, createdAt: clock.now(), createdBy: actor.userId };
      await store.transaction(async (repos) => {
        // Comments of one annotation are counted under its project's annotations lock.
        await repos.locks.exclusive([`annotations:${scope.project.id}`]);
        if ((await repos.annotations.comments([current.id])).length >= ANNOTATION_LIMITS.comments) {
          throw invalidInput(`An annotation holds at most ${ANNOTATION_LIMITS.comments} comments`, { field: 'description' });
        }
        await repos.annotations.insertComment(comment);
        await repos.events.publish(
          projectEventOf('annotation.commented', scope.project, subjectOf('annotation', current.id), {
            annotationId: current.id, workzoneId: current.workzoneId, commentId: comment.id,
          }),
          comment.createdAt,
        );
      });
      return { comment, accountId: scope.account.account.id };
    },
  };
}
