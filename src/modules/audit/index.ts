// The audit module's public face (docs/audit.md): the use cases' type, the record's shape and
// the chain's pure rules (tests, the admin command).
export { createAuditLog, outcomeOf, AUDIT_LIMITS, type AuditLog, type AuditStore, type Verification } from './core/audit-log.ts';
export { canonicalContent, chainHash, checkBatch, GENESIS_HASH, type ChainProblem } from './core/chain.ts';
export type { AuditEntry, AuditFilter, AuditOutcome, AuditRecord, AuditRepo, AuditSurface, ChainState } from './core/ports.ts';
