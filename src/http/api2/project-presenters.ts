// API 2 presenters of projects (work zones and their copies: src/modules/workzones/http/presenters.ts;
// members: src/modules/members/http/presenters.ts): pure reshaping of the core's views (URN ids,
// the 302 links of covers, docs/files.md).
import type { Services } from '../../services.ts';
import type { ProjectView } from '../../core/projects/index.ts';
import { api2Kit } from './route-kit.ts';

/**
 * What a project without a location shows as `location`: the vendor's `Project.location` is a
 * required, non-nullable `{lat, lng}` (docs/projects.md "Location", docs/decisions.md). The
 * database keeps "no location" (NULL), and API 1 still shows it as null.
 */
const NO_LOCATION = Object.freeze({ lat: 0, lng: 0 });

export function projectPresenters(core: Pick<Services, 'config'>) {
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
