// Reach: may the caller get at a project at all (the account is one he may see, the
// project exists there, he is a member or may list the account's projects, it is not
// deleted). Asked before a large request body is read (tag writes accept up to 96 MiB),
// so a caller without reach is refused with the same 401/403/404 the use case would
// give, without the service reading, parsing or validating his body first.
import type { EntityRef } from '../../../core/ids/urn.ts';
import type { Actor } from '../../../core/permissions/authorizer.ts';
import type { ProjectAccess } from './project-access.ts';

/** Whether the caller may get at a project at all, asked before a large request body is read. */
export interface Reach {
  /** Throws the project scope's 403/404; the project's last-access date is not moved (nothing was done yet). */
  project(actor: Actor, accountRef: EntityRef, projectRef: EntityRef): Promise<void>;
}

export function createReach(deps: { access: ProjectAccess }): Reach {
  const { access } = deps;
  return {
    /** Throws the project scope's 403/404; the project's last-access date is not moved (nothing was done yet). */
    async project(actor: Actor, accountRef: EntityRef, projectRef: EntityRef): Promise<void> {
      await access.project(actor, accountRef, projectRef, { record: false });
    },
  };
}
