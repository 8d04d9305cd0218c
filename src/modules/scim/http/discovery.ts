// The SCIM discovery documents (RFC 7643 §5–7, RFC 7644 §4): what this service provider
// supports, its two resource types, and their schemas (the attributes it keeps).
import { GROUP_SCHEMA, PAGE, USER_SCHEMA } from '../core/index.ts';

const SPC_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RT_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: [SPC_SCHEMA],
    documentationUri: 'https://github.com/scanbase/scanbase/blob/main/docs/identity.md#scim-provisioning',
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: PAGE.maxCount },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [{ type: 'oauthbearertoken', name: 'Bearer token', description: 'The account\'s SCIM token (API 2 POST /accounts/{a}/scim/token)', primary: true }],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

export function resourceTypes(baseUrl: string) {
  return [
    { schemas: [RT_SCHEMA], id: 'User', name: 'User', endpoint: '/Users', description: 'A user of the account', schema: USER_SCHEMA, meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/User` } },
    { schemas: [RT_SCHEMA], id: 'Group', name: 'Group', endpoint: '/Groups', description: 'A group of the account', schema: GROUP_SCHEMA, meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/Group` } },
  ];
}

const attr = (name: string, extra: Record<string, unknown> = {}) => ({
  name, type: 'string', multiValued: false, required: false, caseExact: false, mutability: 'readWrite', returned: 'default', uniqueness: 'none', ...extra,
});

export function schemas(baseUrl: string) {
  return [
    {
      schemas: [SCHEMA_SCHEMA], id: USER_SCHEMA, name: 'User', description: 'A user of the account',
      attributes: [
        attr('userName', { required: true, uniqueness: 'server', description: 'The user\'s e-mail address unless the IdP sets another' }),
        attr('externalId', { caseExact: true }),
        { ...attr('name', { type: 'complex' }), subAttributes: [attr('givenName'), attr('familyName'), attr('formatted', { mutability: 'readOnly' })] },
        attr('displayName', { mutability: 'readOnly' }),
        attr('title'),
        { ...attr('emails', { type: 'complex', multiValued: true, mutability: 'readOnly' }), subAttributes: [attr('value'), attr('type'), attr('primary', { type: 'boolean' })] },
        attr('active', { type: 'boolean' }),
      ],
      meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${USER_SCHEMA}` },
    },
    {
      schemas: [SCHEMA_SCHEMA], id: GROUP_SCHEMA, name: 'Group', description: 'A group of the account',
      attributes: [
        attr('displayName', { required: true, uniqueness: 'server' }),
        attr('externalId', { caseExact: true }),
        {
          ...attr('members', { type: 'complex', multiValued: true }),
          subAttributes: [attr('value', { caseExact: true, mutability: 'immutable' }), attr('display', { mutability: 'readOnly' }), attr('$ref', { type: 'reference', mutability: 'immutable' })],
        },
      ],
      meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${GROUP_SCHEMA}` },
    },
  ];
}
