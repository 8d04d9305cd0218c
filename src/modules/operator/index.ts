// The operator module's public face (CONTRACT §3, docs/operator-api.md): the seed document and
// its account extensions, reset, outbox and tokens without a browser, the operator token's
// check, the sandbox clock, and the administration command's use cases (AdminUse, built by
// src/admin.ts and src/serve.ts). Its offers reach the HTTP face through its contract
// (module.ts); the wiring, the sandbox module and the roles' seed extension import this face.
export { createSeeder } from './core/seed.ts';
export type { ApplySeed, SeedAccount, SeedAccountExtension, SeedDocument, SeedResult } from './core/seed.ts';
export { createOperator } from './core/operator.ts';
export type { Operator } from './core/operator.ts';
export { createOperatorAuth } from './core/operator-auth.ts';
export type { AuthenticateOperator } from './core/operator-auth.ts';
export { SANDBOX_CLOCK_SETTING, createSandboxClock, followSandboxClock } from './core/sandbox-clock.ts';
export type { SandboxClock } from './core/sandbox-clock.ts';
export { ADMIN_ACCOUNT_ROLES, DEFAULT_OWNER_ROLES, createAdmin } from './core/admin.ts';
export type { AdminAccountRole, AdminUse } from './core/admin.ts';
