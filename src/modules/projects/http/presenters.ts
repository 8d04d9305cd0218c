// Presenters of projects (work zones and their copies: src/modules/workzones/http/presenters.ts;
// members: src/modules/members/http/presenters.ts): pure reshaping of the core's views (API 2:
// URN ids, the 302 links of covers, docs/files.md; API 1: API 1 ids).
import { api1IdOf } from '../../../core/ids/api1-id.ts';
import { api2Kit, type KitCore } from '../../../http/api2/route-kit.ts';
import { id1 } from '../../../http/api1/presenters.ts';
import type { ProjectView } from '../core/projects.ts';
import type { ProjectDetails } from '../core/project-details.ts';

/**
 * What a project without a location shows as `location`: the vendor's `Project.location` is a
 * required, non-nullable `{lat, lng}` (docs/projects.md "Location", docs/decisions.md). The
 * database keeps "no location" (NULL), and API 1 still shows it as null.
 */
const NO_LOCATION = Object.freeze({ lat: 0, lng: 0 });

export function projectPresenters(core: KitCore) {
  const { urn, opt, blobUrl } = api2Kit(core);
  const project = (v: ProjectView) => {
    const p = v.project;
    return {
      id: urn('project', p.id), urn: urn('project', p.id), api1Id: p.api1Id, type: 'project' as const,
      accountId: urn('account', p.accountId), subscriptionId: urn('subscription', p.subscriptionId), isdemo: p.isDemo,
      region: p.region, name: p.name, description: p.description, ownerId: urn('user', p.ownerId), location: p.location ?? NO_LOCATION,
      modificationInfo: {
        createdAt: p.createdAt.toISOString(), createdBy: opt('user', p.createdBy), updatedAt: p.updatedAt.toISOString(),
        updatedBy: opt('user', p.updatedBy), isDeleted: p.deletedAt !== null,
        ...(p.deletedAt ? { deletedAt: p.deletedAt.toISOString() } : {}),
        ...(p.deletedBy ? { deletedBy: urn('user', p.deletedBy) } : {}),
      },
      statsInfo: v.stats ?? {},
      ...(p.coverBlobName
        ? {
          coverBlobName: p.coverBlobName,
          // the 302 link of the cover (docs/files.md)
          coverUrl: blobUrl(p.accountId, p.id, p.coverBlobName),
        }
        : {}),
      rootWorkzoneId: urn('workzone', p.rootWorkzoneId),
      ...(p.spatialReference ? { spatialReference: p.spatialReference } : {}),
      permissions: v.permissions,
      bimOnRootWz: v.bimOnRootWz,
    };
  };
  return { project };
}

/** A project's details in API 1's shape (api1-schemas.ts Project). */
export function api1ProjectDetails(d: ProjectDetails) {
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
