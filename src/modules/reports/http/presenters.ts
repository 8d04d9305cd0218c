// The reports as API 1 shows them (API 1 ids).
import { api1IdOf } from '../../../core/ids/api1-id.ts';
import type { ProjectLastAccessRow, UserLastActivityRow } from '../core/ports.ts';

export const reportPresenters = {
  projectLastAccess: (r: ProjectLastAccessRow) => ({
    accountId: api1IdOf(r.accountId), planId: api1IdOf(r.subscriptionId), projectId: api1IdOf(r.projectId),
    projectName: r.projectName, lastAccessedDate: r.lastAccessedDate,
  }),
  userLastActivity: (r: UserLastActivityRow) => ({
    userId: api1IdOf(r.userId), userFirstname: r.firstName, userLastname: r.lastName, userEmail: r.email,
    userCompanyName: r.company, lastActivityDate: r.lastActivityDate,
  }),
};
