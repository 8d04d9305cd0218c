// The operator module (CONTRACT §3, docs/operator-api.md): the seed document and its
// account extensions, reset, outbox and tokens without a browser, the operator token's
// check, the sandbox clock, and the administration command's use cases.
// Offers: ApplySeed, Operator, AuthenticateOperator, SandboxClock (and its task), AdminUse.
// Needs: the token service, the modules' seed extensions (roles and groups), the store.
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { createSeeder } from './seed.ts';
export type { ApplySeed, SeedAccount, SeedAccountExtension, SeedDocument, SeedResult } from './seed.ts';
export { createOperator } from './operator.ts';
export type { Operator } from './operator.ts';
export { createOperatorAuth } from './operator-auth.ts';
export type { AuthenticateOperator } from './operator-auth.ts';
export { SANDBOX_CLOCK_SETTING, createSandboxClock, followSandboxClock } from './sandbox-clock.ts';
export type { SandboxClock } from './sandbox-clock.ts';
export { ADMIN_ACCOUNT_ROLES, DEFAULT_OWNER_ROLES, createAdmin } from './admin.ts';
export type { AdminAccountRole, AdminUse } from './admin.ts';
// Its descriptor (needs, offers, jobs, tasks, seed extensions): module.ts, listed by src/compose.ts.
export { operatorModule, type OperatorOffers } from './module.ts';
