// API 2 shapes of integrations (the vendor's "AccountIntegrations", "AccountIntegrationKonekt",
// "ProjectIntegrations", "ProjectIntegrationKonekt", "ProjectIntegrationAutodesk",
// "AutodeskConnection", their inputs, and the integration links' request and answer).
import { Type } from 'typebox';
import { DateTime, Nullable, StringEnum } from '../../../http/schema-helpers.ts';
import { RefString } from '../../../http/api2/schemas.ts';
import { INTEGRATION_TYPES, type AccountKonektSyncStrategy, type IntegrationType, type ProjectKonektSyncStrategy } from '../index.ts';

const HUB_STRATEGIES: readonly AccountKonektSyncStrategy[] = ['CONFIG_ON_PROJECT', 'BOTH_WAY', 'UPDATES_ONLY_FROM_KONEKT'];
const PROJECT_STRATEGIES: readonly ProjectKonektSyncStrategy[] = ['BOTH_WAY', 'UPDATES_ONLY_FROM_KONEKT'];
const HubStrategy = StringEnum<AccountKonektSyncStrategy>(HUB_STRATEGIES);
const ProjectStrategy = StringEnum<ProjectKonektSyncStrategy>(PROJECT_STRATEGIES);
const IntegrationTypeEnum = StringEnum<IntegrationType>(INTEGRATION_TYPES);
/** A token for Konekt: never echoed, never logged. */
const Token = Type.String({ minLength: 1, maxLength: 4096 });
const ThirdPartyId = Type.String({ minLength: 1, maxLength: 200 });

const HubOptionsInput = Type.Object({
  allowCreateNewUsersOnHub: Type.Optional(Type.Boolean()),
  syncStrategy: Type.Optional(HubStrategy),
}, { additionalProperties: false });

export const AccountKonektCreate = Type.Object({ token: Token, options: Type.Optional(Nullable(HubOptionsInput)) }, { additionalProperties: false });
export const AccountKonektUpdate = Type.Object({ options: HubOptionsInput }, { additionalProperties: false });
export const KonektConnectionCreate = Type.Object({ token: Token }, { additionalProperties: false });

const ProjectOptionsInput = Type.Object({
  allowInviteUsers: Type.Boolean(),
  syncStrategy: Type.Optional(Nullable(ProjectStrategy)),
}, { additionalProperties: false });

export const ProjectKonektWrite = Type.Object({
  hubId: ThirdPartyId,
  konektProjectId: Nullable(Type.Integer({ minimum: 0, maximum: 2147483647 })),
  options: ProjectOptionsInput,
}, { additionalProperties: false });

export const ProjectAutodeskWrite = Type.Object({ autodeskHubId: ThirdPartyId, autodeskProjectId: ThirdPartyId }, { additionalProperties: false });

export const LinksCreate = Type.Object({
  annotations: Type.Optional(Nullable(Type.Array(RefString, { maxItems: 3000 }))),
  integrationTypes: Type.Array(IntegrationTypeEnum, { maxItems: 3 }),
}, { additionalProperties: false });

export const LinksCreated = Type.Object({ created: Type.Record(Type.String(), Type.Array(IntegrationTypeEnum)) });

export const RedirectQuery = Type.Object({
  redirectUri: Type.String({ minLength: 1, maxLength: 2000 }),
  answer: Type.Optional(Type.Union([Type.Literal('redirect'), Type.Literal('json')], {
    default: 'redirect',
    description: 'Scanbase extension: `json` answers 200 `{url}` (Autodesk\'s sign-in address) instead of the 302, for a browser application, whose fetch cannot read a cross-origin redirect\'s Location',
  })),
});
export const ConnectionUrl = Type.Object({ url: Type.String({ description: 'Autodesk\'s sign-in address, to open in the browser' }) });
export const CallbackQuery = Type.Object({
  state: Type.String({ minLength: 1, maxLength: 200 }),
  code: Type.Optional(Type.String({ maxLength: 4096 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
});

const ModificationInfo = Type.Object({
  createdAt: DateTime,
  createdBy: Type.String(),
  updatedAt: DateTime,
  updatedBy: Type.String(),
  isDeleted: Type.Boolean(),
});

const ProjectOptions = Type.Object({ allowInviteUsers: Type.Boolean(), syncStrategy: ProjectStrategy });

export const AccountKonekt = Type.Object({
  id: Type.String(),
  konektId: Type.String(),
  beta: Type.Boolean(),
  modificationInfo: ModificationInfo,
  link: Type.String(),
  options: Type.Object({ allowCreateNewUsersOnHub: Type.Boolean(), syncStrategy: HubStrategy }),
  name: Type.String(),
  connected: Type.Boolean(),
  konektProjects: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
  linkedProjects: Type.Array(Type.Object({ id: Type.String(), konektId: Type.Integer(), options: ProjectOptions })),
});

export const AccountIntegrations = Type.Object({ konekt: Type.Array(AccountKonekt) });

const Stamps = { createdAt: DateTime, createdBy: Type.String(), updatedAt: DateTime, updatedBy: Type.String() };

export const ProjectKonekt = Type.Object({
  projectId: Type.String(), hubId: Type.String(), konektId: Type.Integer(), options: ProjectOptions, link: Type.String(), ...Stamps,
});

export const ProjectAutodesk = Type.Object({
  projectId: Type.String(), autodeskHubId: Type.String(), autodeskProjectId: Type.String(), link: Type.String(), ...Stamps,
});

export const ProjectIntegrations = Type.Object({ konekt: Type.Optional(ProjectKonekt), autodesk: Type.Optional(ProjectAutodesk) });

const Named = { autodeskId: Type.String(), name: Type.String() };
export const AutodeskConnection = Type.Object({
  email: Nullable(Type.String()),
  userName: Nullable(Type.String()),
  firstName: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  hubs: Type.Array(Type.Object({ ...Named, projects: Type.Array(Type.Object(Named)) })),
});
