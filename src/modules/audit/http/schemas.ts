// API 2 shapes of the audit log (our extension; docs/audit.md).
import { Type } from 'typebox';
import { DateTime, Nullable, StringEnum } from '../../../http/schema-helpers.ts';
import { AUDIT_LIMITS } from '../core/audit-log.ts';

const Filters = {
  user: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "The user's URN or id: only his records" })),
  target: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'A target as records list it (`projectRef=…`, `project:<id>`)' })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Records at or after this time' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Records before this time' })),
};

export const AuditQuery = Type.Object({
  ...Filters,
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: AUDIT_LIMITS.maxPageSize, description: `Records per page (default ${AUDIT_LIMITS.defaultPageSize})` })),
  before: Type.Optional(Type.Integer({ minimum: 1, description: "The previous page's nextBefore: the records before that one" })),
}, { additionalProperties: false });

export const AuditExportQuery = Type.Object({
  ...Filters,
  format: Type.Optional(StringEnum(['ndjson', 'csv'] as const)),
}, { additionalProperties: false });

export const AuditRecordShape = Type.Object({
  seq: Type.Integer({ description: 'Its place in the chain' }),
  at: DateTime,
  accountId: Nullable(Type.String()),
  userId: Nullable(Type.String()),
  client: Nullable(Type.String({ description: '`oauth:<client_id>` (the access token\'s OAuth client, or the client the token endpoint issued to), or the credential: `operator-token`, `admin-command`, `scim-token`; null: none. Older records: the User-Agent' })),
  ip: Nullable(Type.String()),
  surface: StringEnum(['api2', 'api1', 'operator', 'oauth', 'sso', 'admin', 'other'] as const),
  operation: Type.String({ description: 'operationId, method and route; or the admin command' }),
  targets: Type.Array(Type.String()),
  outcome: StringEnum(['applied', 'refused', 'failed', 'signed-in', 'sign-in-failed'] as const),
  status: Nullable(Type.Integer({ description: 'The HTTP status (the exit code of an admin command); null when written in the change\'s transaction' })),
  decisions: Type.Array(Type.Object({ permission: Type.String(), grant: Nullable(Type.String()) }), { description: 'The permissions allowed and the grants they came from' }),
  requestId: Type.String(),
  prevHash: Type.String(),
  hash: Type.String(),
});

export const AuditPage = Type.Object({
  records: Type.Array(AuditRecordShape),
  nextBefore: Nullable(Type.Integer({ description: 'Pass as `before` for the next (older) page; null: none' })),
});
