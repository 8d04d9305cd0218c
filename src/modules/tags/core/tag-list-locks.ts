// Finding and locking tag lists (docs/tags.md): every tag write of a subscription takes
// the subscription's tag counter lock first, then the row locks of the lists it changes;
// a pending list (an AI detection is running) cannot be changed.
import { DomainError, notFound } from '../../../core/errors.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { TagListRecord, TagsRepos } from './ports.ts';
import type { Permission } from '../../../core/permissions/catalog.ts';
import { type ProjectScope, subscriptionNotActive, type ProjectsRepos } from '../../projects/index.ts';
import type { AccountsRepos, SubscriptionRecord } from '../../accounts/index.ts';

export const TAGS_READ: Permission = 'workzone:tags:read';
export const TAGS_WRITE: Permission = 'workzone:tags:write';

export const tagListPending = (list: TagListRecord) =>
  new DomainError('conflict', 'tag-list-pending', 'The tag list is pending (an AI detection is running): it cannot be changed until it ends', {
    tagListId: list.id,
  });

/** A list of the scope's project (404 tag-list otherwise). */
export async function listIn(repos: Pick<Repos & TagsRepos, 'tags'>, scope: ProjectScope, ref: EntityRef): Promise<TagListRecord> {
  const l = await repos.tags.listByRef(scope.project.id, ref);
  if (!l) throw notFound('tag-list', refValue(ref));
  return l;
}

/** The subscription's counter lock: every tag write of the subscription is serialised, so capacity holds on every node. */
export async function lockSubscription(repos: Pick<Repos & ProjectsRepos & AccountsRepos, 'projects' | 'subscriptions' | 'locks'>, scope: ProjectScope): Promise<SubscriptionRecord> {
  const project = await repos.projects.byRef(scope.project.accountId, { uuid: scope.project.id });
  if (!project) throw notFound('project', scope.project.id);
  const sub = await repos.subscriptions.byId(project.subscriptionId);
  if (!sub) throw notFound('subscription', project.subscriptionId);
  if (!sub.isActive) throw subscriptionNotActive(sub);
  await repos.locks.exclusive([`subscription-tags:${sub.id}`]);
  return sub;
}

/** Re-reads the list under its row lock; refuses a pending one. */
export async function lockForChange(repos: Pick<Repos & TagsRepos, 'tags'>, scope: ProjectScope, id: string, ref?: EntityRef): Promise<TagListRecord> {
  const l = await repos.tags.lockList(id);
  if (!l || l.projectId !== scope.project.id) throw notFound('tag-list', ref ? refValue(ref) : id);
  if (l.pending) throw tagListPending(l);
  return l;
}
