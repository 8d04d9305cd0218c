// The reports module's repository port (its SQL: src/modules/reports/postgres/reports.ts).
export interface ProjectLastAccessRow {
  accountId: string;
  subscriptionId: string;
  projectId: string;
  projectName: string;
  lastAccessedDate: string | null;
}

export interface UserLastActivityRow {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  lastActivityDate: string | null;
}

/** API 1's reports. */
export interface ReportsRepo {
  touchUserActivity(userId: string, date: string): Promise<void>;
  projectsLastAccessed(accountId: string, filter: { subscriptionId?: string; projectId?: string }): Promise<ProjectLastAccessRow[]>;
  usersLastActivity(accountId: string): Promise<UserLastActivityRow[]>;
}
