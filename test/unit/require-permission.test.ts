// requirePermission (src/core/permissions/authorizer.ts) is the one way a use case refuses
// for authorization: a rule over a held set, or a named condition (refusal-conditions.ts).
// The refusal's shape is the spec's 403 whichever form asked; and no file of src/core builds
// an authorization 403 another way (the scan below fails on an inline refusal).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DomainError } from '../../src/core/errors.ts';
import { requirePermission } from '../../src/core/permissions/authorizer.ts';
import { condition, REFUSAL_CONDITIONS } from '../../src/core/permissions/refusal-conditions.ts';

const refusal = (fn: () => void): DomainError => {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof DomainError);
    return e;
  }
  assert.fail('expected a refusal');
};

test('a rule over a held set refuses naming the rule, of alternatives the first, with the default message', () => {
  const held = new Set(['workzone:documents:read']);
  requirePermission(held, 'workzone:documents:read', 'view-file-forbidden');
  requirePermission(held, [['workzone:cad-model:read'], ['workzone:documents:read']], 'view-file-forbidden');
  const one = refusal(() => requirePermission(held, 'workzone:documents:write', 'delete-file-forbidden'));
  assert.deepEqual([one.kind, one.code, one.message, one.values], ['forbidden', 'delete-file-forbidden', 'Requires workzone:documents:write', { requiredPermissions: ['workzone:documents:write'], grantedBy: [] }]);
  const alt = refusal(() => requirePermission(held, [['workzone:cad-model:write'], ['workzone:documents:write']], 'update-file-forbidden'));
  assert.deepEqual(alt.values, { requiredPermissions: ['workzone:cad-model:write'], grantedBy: [] });
  const all = refusal(() => requirePermission(held, ['workzone:documents:read', 'workzone:documents:write'], 'update-file-forbidden'));
  assert.deepEqual(all.values, { requiredPermissions: ['workzone:documents:read', 'workzone:documents:write'], grantedBy: [] });
});

test('a message function receives the permissions missing from the held set', () => {
  const held = new Set(['workzone:members:write']);
  const e = refusal(() => requirePermission(held, ['workzone:members:write', 'workzone:tags:read', 'workzone:crops:read'], 'add-project-members-forbidden',
    (missing) => `Requires ${missing.join(', ')} on every work zone`));
  assert.equal(e.message, 'Requires workzone:tags:read, workzone:crops:read on every work zone');
  assert.deepEqual(e.values, { requiredPermissions: ['workzone:members:write', 'workzone:tags:read', 'workzone:crops:read'], grantedBy: [] });
});

test('a named condition refuses when it does not hold, naming the rule it stands for, and passes when it holds', () => {
  requirePermission(condition('project-member', true), 'project:workzones:list', 'not-member-of-project');
  const e = refusal(() => requirePermission(condition('project-member', false), 'project:workzones:list', 'not-member-of-project', 'You are not a member of this project'));
  assert.deepEqual([e.code, e.message, e.values], ['not-member-of-project', 'You are not a member of this project', { requiredPermissions: ['project:workzones:list'], grantedBy: [] }]);
  const owner = refusal(() => requirePermission(condition('account-owner', false), 'account:account:update-owner', 'update-subscription-forbidden'));
  assert.deepEqual([owner.message, owner.values], ['Requires account:account:update-owner', { requiredPermissions: ['account:account:update-owner'], grantedBy: ['owner'] }]);
});

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');
const CORE = path.join(SRC, 'core');
const sources = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(path.join(dir, d.name)) : d.name.endsWith('.ts') && !d.name.endsWith('.test.ts') ? [path.join(dir, d.name)] : []);
/** Where use cases are: the kernel's modules (src/core) and each slice's core (src/modules/<m>/core). */
const USE_CASE_SOURCES = (): string[] => [
  ...sources(CORE),
  ...fs.readdirSync(path.join(SRC, 'modules'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(SRC, 'modules', d.name, 'core')))
    .flatMap((d) => sources(path.join(SRC, 'modules', d.name, 'core'))),
];

/**
 * 403s that are rules about the state, not the caller's authority (docs/permissions.md
 * "403 codes"): nobody may do these, whatever he holds.
 */
const STATE_RULES = ['deleted-project', 'delete-account-owner-forbidden', 'remove-user-from-account-forbidden', 'new-project-owner-not-manager'];

test('every authorization refusal of src/core goes through requirePermission; the other 403s are the listed state rules', () => {
  const found: string[] = [];
  for (const file of sources(CORE)) {
    const text = fs.readFileSync(file, 'utf8');
    const rel = path.relative(CORE, file);
    if (rel !== path.join('permissions', 'authorizer.ts') && /\bforbidden\(/.test(text)) found.push(`${rel}: forbidden(`);
    for (const m of text.matchAll(/new DomainError\(\s*'forbidden',\s*'([^']+)'/g)) {
      if (!STATE_RULES.includes(m[1]!)) found.push(`${rel}: ${m[1]}`);
    }
  }
  assert.deepEqual(found, []);
});

test('each named condition is used by some use case (kernel or slice), so the table lists no dead entry', () => {
  const text = USE_CASE_SOURCES().map((f) => fs.readFileSync(f, 'utf8')).join('\n');
  for (const name of Object.keys(REFUSAL_CONDITIONS)) assert.ok(text.includes(`condition('${name}'`), name);
});
