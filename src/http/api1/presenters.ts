// API 1 presenters: pure reshaping into API 1 shapes; every id is an API 1 id.
import { api1IdOf } from '../../core/ids/api1-id.ts';
import type { ProjectDetails } from '../../core/projects/index.ts';

/** An optional id in API 1's form. */
export const id1 = (uuid: string | null) => (uuid ? api1IdOf(uuid) : null);

/** A project's details in API 1's shape (schemas.ts Project). */
export function projectDetails(d: ProjectDetails) {
  const p = d.project;
  const users = d.access.filter((m) => m.memberType === 'user');
  const groups = d.access.filter((m) => m.memberType === 'group');
  return {
    id: p.api1Id, type: 'project' as const, accountId: api1IdOf(p.accountId), planId: api1IdOf(p.subscriptionId), isdemo: p.isDemo,
    region: p.region, projectIdV0: p.api1Id, projectIdDefault: api1IdOf(p.rootWorkzoneId), ownerId: api1IdOf(p.ownerId),
    createdAt: p.createdAt.toISOString(), createdBy: id1(p.createdBy), updatedAt: p.updatedAt.toISOString(), updatedBy: id1(p.updatedBy),
    name: p.name, description: p.description, location: p.location, isDeleted: p.deletedAt !== null, deletedBy: id1(p.deletedBy),
    deletedAt: p.deletedAt?.toISOString() ?? null, scanCount: d.stats.scanCount, scanSize: d.stats.scanSize,
    workzoneCount: d.stats.workzoneCount, rootWorkzoneCount: 1,
    userIds: users.map((m) => api1IdOf(m.memberId)), groupIds: groups.map((m) => api1IdOf(m.memberId)),
    roleIds: [...new Set(d.access.map((m) => api1IdOf(m.roleId)))],
    settings: { spatialReference: p.spatialReference },
    workzones: d.workzones.map((w) => ({
      projectId: p.api1Id, id: w.api1Id, uuid: w.id, type: 'workzone' as const, root: w.id === p.rootWorkzoneId, name: w.name,
      roleIds: [...new Set(d.access.filter((m) => m.workzoneIds.includes(w.id)).map((m) => api1IdOf(m.roleId)))],
      description: w.description, imageBlob: w.coverBlobName, location: null, startAt: null, createdBy: id1(w.createdBy),
      createdAt: w.createdAt.toISOString(), updatedAt: w.updatedAt.toISOString(), updatedBy: id1(w.updatedBy),
      userContributors: users.filter((m) => m.workzoneIds.includes(w.id)).map((m) => ({ userId: api1IdOf(m.memberId), roleId: api1IdOf(m.roleId) })),
      groupContributors: groups.filter((m) => m.workzoneIds.includes(w.id)).map((m) => ({ groupId: api1IdOf(m.memberId), roleId: api1IdOf(m.roleId) })),
      scanCount: d.zoneScans.get(w.id)?.scanCount ?? 0, scanSize: d.zoneScans.get(w.id)?.scanSize ?? 0,
    })),
    permissions: d.flags,
  };
}
