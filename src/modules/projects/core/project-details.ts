// A project with its work zones and members in one read: what API 1's project
// resource shows (workzones[], userIds, groupIds, roleIds, contributors per zone), as far
// as API 2 would show them to the caller.
import type { EntityRef } from '../../../core/ids/urn.ts';
import { refUuid } from '../../../core/ids/refs.ts';
import type { ProjectRecord, ProjectStats, ProjectsRepos } from './ports.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { FilesRepos } from '../../../core/ports/file-repositories.ts';
import type { MemberAccess, MembersRepos } from '../../members/index.ts';
import type { Actor } from '../../../core/permissions/authorizer.ts';
import type { ProjectAccess, ProjectScope } from './project-access.ts';
import type { Projects } from './projects.ts';
import { readsOf, storeReadsOf, type ReadsOf } from '../../../core/ports/store-slices.ts';
import type { WorkzoneRecord, WorkzonesRepos } from '../../workzones/index.ts';

export interface ProjectDetails {
  project: ProjectRecord;
  stats: ProjectStats;
  workzones: WorkzoneRecord[];
  /** Registered scans per work zone (API 1 Workzone.scanCount, scanSize). */
  zoneScans: Map<string, { scanCount: number; scanSize: number }>;
  access: MemberAccess[];
  flags: { administrator: boolean; manager: boolean; contributor: boolean };
}

/** Project details (API 1 "project details" and the find-by-ids read). */
export interface ProjectDetailsService {
  /** One project's details: members, work zones, statistics. */
  getProjectDetails(actor: Actor, accountRef: EntityRef, projectRef: EntityRef): Promise<ProjectDetails>;
  /**
   * API 1 find: every project the caller sees, or only the one owning `workzoneRef`. A
   * listing, like API 2's: it does not move the projects' last-access dates. A fixed
   * number of statements for any number of projects.
   */
  findProjects(actor: Actor, accountRef: EntityRef, workzoneRef?: EntityRef): Promise<ProjectDetails[]>;
  /**
   * API 1 "Modify project subscription": each change replaces the project's subscription
   * `from` (which must be its current one) by `to`, both as the caller wrote them and read
   * with `subscriptionRef` (the surface's parser: its refusal is the caller's 400) in the
   * vendor's order: the project first (404, 403), then each `from` in turn, then the `to`s.
   * Every change is checked before anything changes; the last one decides and is applied
   * once (all or nothing), with the rules of a project update (its permission, the target
   * subscription's). Answers the details after it, or `path-mismatch` (nothing changed) at
   * the first `from` that is not the current subscription.
   */
  replaceSubscription(
    actor: Actor, accountRef: EntityRef, projectRef: EntityRef, changes: readonly { from: string; to: string }[],
    subscriptionRef: (written: string) => EntityRef,
  ): Promise<{ details: ProjectDetails } | { refused: 'path-mismatch' }>;
}

/** What it reads of the store (src/core/ports/store-slices.ts). */
export const PROJECT_DETAILS_READS = storeReadsOf<Repos & ProjectsRepos & FilesRepos & WorkzonesRepos & MembersRepos>()(['files', 'members', 'projects', 'workzones']);

export function createProjectDetails(deps: {
  store: ReadsOf<typeof PROJECT_DETAILS_READS, Repos & ProjectsRepos & FilesRepos & WorkzonesRepos & MembersRepos>;
  access: ProjectAccess;
  /** Which projects a find lists: the same rule as API 2's list (projects.ts); the update a subscription change is. */
  projects: Pick<Projects, 'visibleProjects' | 'updateProject'>;
}): ProjectDetailsService {
  const { access, projects } = deps;
  const store = readsOf(deps.store, PROJECT_DETAILS_READS);

  /**
   * The same rules as API 2's: the zones the caller may read (…/workzones) and the members
   * only with project:members:list (…/members/access), so a caller who only sees the
   * project listed (rule 6, no member) gets the project without zones or members. Four
   * statements at most for any number of projects (counts, zones, members, scans per
   * zone), none of them per project.
   */
  async function detailsOf(scopes: ProjectScope[]): Promise<ProjectDetails[]> {
    const ids = scopes.map((s) => s.project.id);
    const memberOf = scopes.filter((s) => s.isMember).map((s) => s.project.id);
    const listingMembers = scopes.filter((s) => s.isMember && s.permissions.has('project:members:list')).map((s) => s.project.id);
    const [stats, zones, access, scans] = await Promise.all([
      store.repos.projects.stats(ids),
      store.repos.workzones.listByProjects(memberOf),
      store.repos.members.accessLists(listingMembers),
      store.repos.files.scanStatsByZones(memberOf),
    ]);
    return scopes.map((scope) => {
      const p = scope.project;
      const acc = scope.account;
      return {
        project: p,
        stats: stats.get(p.id)!,
        zoneScans: scans.get(p.id) ?? new Map(),
        workzones: (zones.get(p.id) ?? []).filter((w) => scope.workzone(w.id).has('workzone:workzones:read')),
        access: access.get(p.id) ?? [],
        flags: {
          administrator: p.ownerId === scope.actor.userId || acc.facts.isOwner || acc.facts.roles.includes('administrator'),
          manager: scope.workzone(p.rootWorkzoneId).has('workzone:members:write'),
          contributor: scope.isMember,
        },
      };
    });
  }

  async function getProjectDetails(actor: Actor, accountRef: EntityRef, projectRef: EntityRef): Promise<ProjectDetails> {
    const [details] = await detailsOf([await access.project(actor, accountRef, projectRef, { allowDeleted: true })]);
    return details!;
  }

  return {
    getProjectDetails,

    async replaceSubscription(actor, accountRef, projectRef, changes, subscriptionRef) {
      const current = await getProjectDetails(actor, accountRef, projectRef);
      const currentId = current.project.subscriptionId;
      for (const c of changes) if (refUuid(subscriptionRef(c.from)) !== currentId) return { refused: 'path-mismatch' };
      const targets = changes.map((c) => subscriptionRef(c.to));
      if (targets.length === 0) return { refused: 'path-mismatch' };
      await projects.updateProject(actor, accountRef, projectRef, { subscriptionRef: targets[targets.length - 1]! }, 'patch', {
        scans: false, tags: false, workzones: false,
      });
      return { details: await getProjectDetails(actor, accountRef, projectRef) };
    },
    /**
     * API 1 find: every project the caller sees, or only the one owning `workzoneRef`. A
     * listing, like API 2's: it does not move the projects' last-access dates. A fixed
     * number of statements for any number of projects: the visible projects and the caller's
     * grants in them (two), then the details (four at most).
     */
    async findProjects(actor: Actor, accountRef: EntityRef, workzoneRef?: EntityRef): Promise<ProjectDetails[]> {
      const visible = await projects.visibleProjects(actor, accountRef, workzoneRef);
      return detailsOf(await access.projects(actor, accountRef, visible, { allowDeleted: true }));
    },
  };
}
