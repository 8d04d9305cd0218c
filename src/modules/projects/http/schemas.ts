// API 2 schemas of projects (vendor "Project"; work zones: src/modules/workzones/http/schemas.ts; members:
// src/modules/members/http/schemas.ts). The shapes projects share with work zones
// (ModificationInfo, ProjectDescription) are API 2's: src/http/api2/schemas.ts.
import { Type } from 'typebox';
import { Name, Nullable } from '../../../http/schema-helpers.ts';
import { ModificationInfo, ProjectDescription, RefString } from '../../../http/api2/schemas.ts';


export const Location = Type.Object(
  { lat: Type.Number({ minimum: -90, maximum: 90 }), lng: Type.Number({ minimum: -180, maximum: 180 }) },
  { additionalProperties: false },
);
export const SpatialReference = Type.Object(
  { authName: Type.String({ minLength: 1, maxLength: 128 }), code: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
);

export const ProjectStatsInfo = Type.Object({
  scanCount: Type.Optional(Type.Integer()),
  scanSize: Type.Optional(Type.Integer()),
  tagCount: Type.Optional(Type.Integer()),
  workzoneCount: Type.Optional(Type.Integer()),
});

export const Project = Type.Object({
  id: Type.String(),
  urn: Type.String(),
  api1Id: Type.String(),
  type: Type.Literal('project'),
  accountId: Type.String(),
  subscriptionId: Type.String(),
  isdemo: Type.Boolean(),
  region: Type.String(),
  name: Type.String(),
  description: Type.String(),
  ownerId: Type.String(),
  // never null: a project without a location answers NO_LOCATION (docs/projects.md)
  location: Location,
  modificationInfo: ModificationInfo,
  statsInfo: ProjectStatsInfo,
  coverBlobName: Type.Optional(Type.String()),
  coverUrl: Type.Optional(Type.String()),
  rootWorkzoneId: Type.String(),
  spatialReference: Type.Optional(SpatialReference),
  permissions: Type.Array(Type.String()),
  bimOnRootWz: Type.Boolean(),
});


export const ProjectCreate = Type.Object(
  {
    name: Name,
    description: Type.Optional(Nullable(ProjectDescription)),
    subscriptionId: RefString,
    region: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
    location: Type.Optional(Nullable(Location)),
    cover: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
    spatialReference: Type.Optional(Nullable(SpatialReference)),
  },
  { additionalProperties: false },
);

const projectUpdateFields = {
  name: Name,
  description: Nullable(ProjectDescription),
  subscriptionId: RefString,
  ownerId: RefString,
  location: Nullable(Location),
  coverBlobName: Nullable(Type.String({ minLength: 1, maxLength: 255 })),
  spatialReference: Nullable(SpatialReference),
};

export const ProjectPut = Type.Object(
  {
    name: projectUpdateFields.name,
    description: Type.Optional(projectUpdateFields.description),
    subscriptionId: projectUpdateFields.subscriptionId,
    ownerId: projectUpdateFields.ownerId,
    location: Type.Optional(projectUpdateFields.location),
    coverBlobName: Type.Optional(projectUpdateFields.coverBlobName),
    spatialReference: Type.Optional(projectUpdateFields.spatialReference),
  },
  { additionalProperties: false },
);

export const ProjectPatch = Type.Object(
  {
    name: Type.Optional(projectUpdateFields.name),
    description: Type.Optional(projectUpdateFields.description),
    subscriptionId: Type.Optional(projectUpdateFields.subscriptionId),
    ownerId: Type.Optional(projectUpdateFields.ownerId),
    location: Type.Optional(projectUpdateFields.location),
    coverBlobName: Type.Optional(projectUpdateFields.coverBlobName),
    spatialReference: Type.Optional(projectUpdateFields.spatialReference),
  },
  { additionalProperties: false },
);

export const CountQuery = Type.Object({
  countScans: Type.Optional(Type.Boolean()),
  countTags: Type.Optional(Type.Boolean()),
  countWorkzones: Type.Optional(Type.Boolean()),
});
