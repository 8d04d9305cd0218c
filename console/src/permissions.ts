// What the signed-in user may do in a work zone: the service says so. One zone's GET answers
// the caller's permissions there (`permissions`, docs/projects.md "Work zones"), evaluated by
// the service's own rules (project owner, roles through direct and group grants, account
// roles), so the console does not re-implement them. The service stays the judge of every
// write: a refused one still shows its 403 and requiredPermissions.
import { api, uuidOf } from './api.ts';
import { apiPath, type ApiPath } from './paths.ts';
import type { Workzone } from './types.ts';

export async function zonePermissions(projectUrl: ApiPath, zoneId: string): Promise<Set<string>> {
  const zone = await api<Workzone>('GET', apiPath`${projectUrl}/workzones/${uuidOf(zoneId)}`);
  return new Set(zone.permissions ?? []);
}
