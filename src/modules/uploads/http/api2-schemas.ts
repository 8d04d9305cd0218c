// Request and answer shapes of the multipart extension (docs/files.md "Multipart uploads").
import { Type } from 'typebox';
import * as S from '../../../http/api2/schemas.ts';

export const ZoneParams = S.withParams('projectRef', 'workzoneRef');
export const UploadParams = S.withParams('projectRef', 'workzoneRef', 'uploadId');

export const Start = Type.Object({
  name: Type.String({ maxLength: 1000 }),
  extension: Type.String({ maxLength: 100 }),
  size: Type.Integer({ minimum: 1, description: 'Bytes, 1 B to 5 TiB' }),
  partSize: Type.Optional(Type.Integer({ minimum: 1, description: 'A part size wished for, in bytes; the service decides' })),
});

export const Upload = Type.Object({
  id: Type.String(), blobName: Type.String(), name: Type.String(), extension: Type.String(), size: Type.Integer(),
  partSize: Type.Integer(), partCount: Type.Integer(), provider: Type.String(), expiresAt: Type.String({ format: 'date-time' }),
});

export const PartsToSign = Type.Object({
  parts: Type.Array(Type.Object({ partNumber: Type.Integer(), md5: Type.String({ maxLength: 64 }) }), { minItems: 1, maxItems: 1000 }),
});

export const PartUrls = Type.Object({
  expiresIn: Type.Integer(),
  parts: Type.Array(Type.Object({
    partNumber: Type.Integer(), size: Type.Integer(), url: Type.String(), headers: Type.Record(Type.String(), Type.String()),
  })),
});

export const PartsPage = Type.Object({
  after: Type.Optional(Type.Integer({ minimum: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

export const HeldParts = Type.Object({
  parts: Type.Array(Type.Object({ partNumber: Type.Integer(), size: Type.Integer(), md5: Type.Union([Type.String(), Type.Null()]) })),
  next: Type.Union([Type.Integer(), Type.Null()]),
});

export const Completion = Type.Object({
  md5: Type.Optional(Type.String({
    maxLength: 64,
    description: 'The whole file\'s MD5, hex. May be left out where the store computes it from the bytes (provider `local`: then checked by nothing but the parts\' MD5s and partsMd5, and answered in the file); required on the others',
  })),
  partsMd5: Type.String({ maxLength: 64, description: 'MD5 of the concatenated binary MD5s of parts 1..N, hex' }),
});
