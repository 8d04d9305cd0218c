// The SCIM module's public face (docs/identity.md "SCIM provisioning").
export { TOKEN_PREFIX, type ScimProvisioning, type ScimTokens, type ScimRepo } from './core/index.ts';
