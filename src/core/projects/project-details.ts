// A project with its work zones and members in one read: what API 1's project
// resource shows (workzones[], userIds, groupIds, roleIds, contributors per zone), as far
// as API 2 would show them to the caller.
import type { EntityRef } from '../ids/urn.ts';
import type { MemberAccess, ProjectRecord, ProjectStats, WorkzoneRecord } from '../ports/project-repositories.ts';
import type { Actor } from '../permissions/authorizer.ts';
import type { ProjectAccess, ProjectScope } from './project-access.ts';
import type { StoreReads } from '../ports/store-slices.ts';

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
   * listing, like API 2's: it does not move the projects' last-access dates.
   */
  findProjects(actor: Actor, accountRef: EntityRef, projectIds: string[]): Promise<ProjectDetails[]>;
}

export function createProjectDetails(deps: { store: StoreReads<'files' | 'members' | 'projects' | 'workzones'>; access: ProjectAccess }): ProjectDetailsService {
  const { store, access } = deps;

  /**
   * The same rules as API 2's: the zones the caller may read (…/workzones) and the members
   * only with project:members:list (…/members/access), so a caller who only sees the
   * project listed (rule 6, no member) gets the project without zones or members.
   */
  async function details(scope: ProjectScope): Promise<ProjectDetails> {
    const p = scope.project;
    const member = scope.isMember;
    const [stats, workzones, members] = [
      (await store.repos.projects.stats([p.id])).get(p.id)!,
      member ? await store.repos.workzones.listByProject(p.id) : [],
      member && scope.permissions.has('project:members:list') ? await store.repos.members.accessList(p.id) : [],
    ];
    const acc = scope.account;
    return {
      project: p,
      stats,
      zoneScans: member ? await store.repos.files.scanStatsByZone(p.id) : new Map(),
      workzones: workzones.filter((w) => scope.workzone(w.id).has('workzone:workzones:read')),
      access: members,
      flags: {
        administrator: p.ownerId === scope.actor.userId || acc.facts.isOwner || acc.facts.roles.includes('administrator'),
        manager: scope.workzone(p.rootWorkzoneId).has('workzone:members:write'),
        contributor: scope.isMember,
      },
    };
  }

  return {
    async getProjectDetails(actor: Actor, accountRef: EntityRef, projectRef: EntityRef): Promise<ProjectDetails> {
      return details(await access.project(actor, accountRef, projectRef, { allowDeleted: true }));
    },
    /**
     * API 1 find: every project the caller sees, or only the one owning `workzoneRef`. A
     * listing, like API 2's: it does not move the projects' last-access dates.
     */
    async findProjects(actor: Actor, accountRef: EntityRef, projectIds: string[]): Promise<ProjectDetails[]> {
      const out: ProjectDetails[] = [];
      for (const id of projectIds) {
        out.push(await details(await access.project(actor, accountRef, { type: 'project', uuid: id }, { allowDeleted: true, record: false })));
      }
      return out;
    },
  };
}
