// API 2 presenters of work zones and of a copy's state (pure reshaping: URN ids in the
// deployment's namespace).
import { api2Kit, type KitCore } from '../../../http/api2/route-kit.ts';
import type { WorkzoneView } from '../core/workzones.ts';
import type { CopyStatus } from '../core/copy.ts';

export function workzonePresenters(core: KitCore) {
  const { urn, opt } = api2Kit(core);
  const workzone = (v: WorkzoneView) => {
    const w = v.workzone;
    return {
      id: urn('workzone', w.id), urn: urn('workzone', w.id), api1Id: w.api1Id, type: 'workzone' as const,
      projectId: urn('project', w.projectId), parentId: opt('workzone', w.parentId), rootWorkzoneId: urn('workzone', v.rootWorkzoneId),
      name: w.name, description: w.description, roleIds: v.roleIds.map((r) => urn('role', r)),
      modificationInfo: {
        createdAt: w.createdAt.toISOString(), createdBy: opt('user', w.createdBy), updatedAt: w.updatedAt.toISOString(),
        updatedBy: opt('user', w.updatedBy), isDeleted: false,
      },
      statsInfo: { scanCount: v.scans.scanCount, scanSize: v.scans.scanSize, tagCount: v.tagCount },
      ...(v.permissions ? { permissions: v.permissions } : {}),
    };
  };
  const copyStatus = (s: CopyStatus) => ({
    jobId: s.jobId,
    state: s.state,
    ...(s.result
      ? {
        result: {
          projectId: urn('project', s.result.destinationProjectId), workzoneId: urn('workzone', s.result.workzoneId),
          copiedWorkzones: s.result.copiedWorkzones, copiedFiles: s.result.copiedFiles, skippedMembers: s.result.skippedMembers.length,
        },
      }
      : {}),
    ...(s.error ? { error: s.error } : {}),
  });
  return { workzone, copyStatus };
}
