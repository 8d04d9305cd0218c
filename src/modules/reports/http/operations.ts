// The operation docs of the reports module's routes (src/http/operation-docs.ts).
import { API1_ACCOUNT_ERRORS as ACCOUNT, API1_ACCOUNT_PATH as A, INVALID_INPUT as INPUT, type OperationTable } from '../../../http/operation-docs.ts';


export const REPORTS_OPERATIONS: OperationTable = {
  [`GET ${A}/reports/projects-last-accessed`]: {
    does: 'Report: the date each project of the account was last accessed through the API, optionally of one subscription or project.',
    permission: '`account:projects:list` (owner, administrators, project managers, project listers).',
    errors: [...ACCOUNT, INPUT, 'view-report-forbidden'],
  },
  [`GET ${A}/reports/users-last-activity`]: {
    does: 'Report: the date each user of the account last called the API.',
    permission: '`account:users:read` (owner, administrators, project managers).',
    errors: [...ACCOUNT, 'view-report-forbidden'],
  },
};
