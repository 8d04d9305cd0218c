// Helpers of the tag tests: a scan file of a project, written through the repository (the
// upload flow is the files tests' concern; detection only needs a scan to point at).
import crypto from 'node:crypto';
import type { Core } from '../../src/compose.ts';

const uuidOf = (urn: string): string => urn.slice(urn.lastIndexOf(':') + 1);

/** Inserts a scan (or another category) in the zone; answers its UUID. */
export async function scanIn(core: Core, projectId: string, zoneId: string, category = 'scan'): Promise<string> {
  const id = crypto.randomUUID();
  await core.store.repos.files.insert({
    id, projectId: uuidOf(projectId), workzoneId: uuidOf(zoneId), category, formatId: 1, name: `scan-${id.slice(0, 8)}`,
    extension: category === 'scan' ? 'e57' : 'pdf', size: 3, md5: '0'.repeat(32), blobName: `blob-${id}`, translation: null,
    rotation: null, scale: null, createdAt: new Date(), createdBy: null, importedAt: new Date(),
  });
  return id;
}
