// Request schemas of the sandbox module's operator routes (docs/operator-api.md). Fault rules
// are checked by the core (fault-rules.ts: the same check for FAULTS_FILE), which names the field.
import { Type } from 'typebox';

export const SnapshotName = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$' });
export const NameParams = Type.Object({ name: SnapshotName });
export const SaveSnapshot = Type.Object({ name: SnapshotName, signingKeys: Type.Optional(Type.Boolean()) }, { additionalProperties: false });

const JournalFilters = {
  user: Type.Optional(Type.String({ maxLength: 64 })),
  status: Type.Optional(Type.String({ pattern: '^([1-5][0-9][0-9]|[1-5]xx)$' })),
  operationId: Type.Optional(Type.String({ maxLength: 100 })),
  method: Type.Optional(Type.String({ pattern: '^[A-Za-z]{1,16}$' })),
  path: Type.Optional(Type.String({ maxLength: 2048, pattern: '^/' })),
  errorCode: Type.Optional(Type.String({ maxLength: 100 })),
  after: Type.Optional(Type.Integer({ minimum: 0 })),
  since: Type.Optional(Type.String({ format: 'date-time' })),
};

/** GET /_operator/journal/stream: the journal's filters, and the heartbeat's period (1 to 60 s, default 15). */
export const JournalStreamQuery = Type.Object(
  { ...JournalFilters, heartbeat: Type.Optional(Type.Integer({ minimum: 1, maximum: 60 })) },
  { additionalProperties: false },
);

export const JournalQuery = Type.Object(
  {
    ...JournalFilters,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    wait: Type.Optional(Type.Number({ minimum: 0, maximum: 30 })),
  },
  { additionalProperties: false },
);
