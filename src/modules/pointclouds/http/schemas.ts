// The pointclouds module's API 2 shapes (docs/point-clouds.md "API").
import { Type } from 'typebox';
import { DateTime, Nullable, NullableDateTime } from '../../../http/schema-helpers.ts';

const Triple = Type.Array(Type.Number(), { minItems: 3, maxItems: 3 });

export const PointCloudStatus = Type.Object(
  {
    fileId: Type.String({ description: 'The file (URN)' }),
    state: Type.Union([Type.Literal('pending'), Type.Literal('queued'), Type.Literal('converting'), Type.Literal('done'), Type.Literal('failed')], {
      description: 'pending: registered, the job is being queued; queued: waits for a node; converting; done: the COPC output is served; failed: for good (reason)',
    }),
    phase: Nullable(Type.String({ description: 'downloading, counting, distributing, indexing, writing, uploading, done' })),
    pointsRead: Type.Number({ description: 'Points read from the file so far' }),
    pointsTotal: Type.Number({ description: 'Points in the file (its header\'s count until the first pass ends)' }),
    percent: Type.Number({ minimum: 0, maximum: 100, description: 'Of the whole conversion' }),
    etaSeconds: Nullable(Type.Number({ description: 'Seconds left at the rate so far; null until there is a rate' })),
    reason: Nullable(Type.String({ description: 'Why it failed: wrong_format, not_las, truncated, corrupt, checksum, unsupported, empty, unknown_extension, error' })),
    message: Nullable(Type.String({ description: 'The failure (or the last failed attempt\'s) in words' })),
    pointCount: Nullable(Type.Number()),
    bounds: Nullable(Type.Object({ min: Triple, max: Triple })),
    copcSize: Nullable(Type.Number({ description: 'Bytes of the COPC output' })),
    nodes: Nullable(Type.Number({ description: 'Octree nodes of the COPC output' })),
    copcUrl: Nullable(Type.String({ description: 'The COPC output, by range with the caller\'s token (once done)' })),
    createdAt: DateTime,
    startedAt: NullableDateTime,
    finishedAt: NullableDateTime,
    updatedAt: DateTime,
  },
  { $id: 'PointCloudStatus', description: 'A point-cloud file\'s conversion to COPC (our extension)' },
);
