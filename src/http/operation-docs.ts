// What the OpenAPI documents say about each operation beyond its schema: one table per
// API (api2/operation-docs.ts, api1/operation-docs.ts), keyed "METHOD /path" as the
// documents spell paths. Facts from the spec, CONTRACT and the code: each permission
// named is the one the use case checks (src/core/…), each code one it can answer, named
// from the error-code catalogue (src/core/error-codes.ts and the modules', assembled in
// src/modules/registries.ts), which gives its status (src/http/openapi.ts writes the
// descriptions). Types only: the modules' tables import them, and the registries read them.
import type { ErrorCode } from '../core/http-face.ts';

/** An error an operation answers: a code of the catalogue, with a condition where useful. */
export type OperationError = ErrorCode | { code: ErrorCode; when: string };

export interface OperationDoc {
  /** What the operation does. */
  does: string;
  /** The permission the code checks, in words naming it; absent: any signed-in user (or none, for public operations). */
  permission?: string;
  /** A public operation: no access token (the token endpoints). */
  public?: true;
  /** The errors it answers besides 401, 429 and body-level ones (shown as "status code", the catalogue's status). */
  errors: readonly OperationError[];
}

export type OperationTable = Readonly<Record<string, OperationDoc>>;

/** The account paths of each API, and the codes every operation under them answers for the account: one copy for every table. */
export const API1_ACCOUNT_PATH = '/api/accounts/{accountId}';
export const API2_ACCOUNT_PATH = '/api/2/accounts/{accountRef}';
export const API1_ACCOUNT_ERRORS = ['account-not-found'] as const;
export const API2_ACCOUNT_ERRORS = ['invalid-account-urn', 'account-not-found'] as const;
/** A project's paths of each API, and the codes of access.project (src/modules/projects/core/project-access.ts: a member, or project:project:list). */
export const API1_PROJECT_PATH = `${API1_ACCOUNT_PATH}/projects/{projectId}`;
export const API2_PROJECT_PATH = `${API2_ACCOUNT_PATH}/projects/{projectRef}`;
export const API1_PROJECT_ERRORS = [...API1_ACCOUNT_ERRORS, 'project-not-found', 'not-member-of-project', 'deleted-project'] as const;
export const API2_PROJECT_ERRORS = [...API2_ACCOUNT_ERRORS, 'invalid-project-urn', 'project-not-found', 'not-member-of-project', 'deleted-project'] as const;
/** A work zone's path (API 2), and its reference's codes. */
export const API2_WORKZONE_PATH = `${API2_PROJECT_PATH}/workzones/{workzoneRef}`;
export const API2_WORKZONE_ERRORS = ['invalid-workzone-urn', 'workzone-not-found'] as const;
/** Who may call a project's operation at least. */
export const PROJECT_MEMBER = 'a project member (`project:workzones:list`; otherwise 403 `not-member-of-project`)';
/** The code of a body or parameter the schema refuses. */
export const INVALID_INPUT = 'invalid-input';
