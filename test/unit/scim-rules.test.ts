// The SCIM module's pure rules (docs/identity.md "SCIM provisioning"): the filter grammar and
// its evaluation (case rules, value filters, and/or/not), and PATCH in the shapes Okta and
// Entra ID send, turned into a user's or a group's changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupChanges, matches, parseFilter, patchOperations, PATCH_OP_SCHEMA, ScimError, userChanges } from '../../src/modules/scim/core/index.ts';

const user = {
  id: 'A1', userName: 'Test.User@Okta.local', externalId: 'Ext-1', active: true, name: { givenName: 'Test', familyName: 'User' },
  emails: [{ value: 'test.user@okta.local', type: 'work', primary: true }],
};
const is = (filter: string) => matches(user, parseFilter(filter));
const scimTypeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ScimError, String(e));
    return e.scimType;
  }
  assert.fail('no error');
};
const ops = (...operations: unknown[]) => patchOperations({ schemas: [PATCH_OP_SCHEMA], Operations: operations });

test('filters: eq on userName is case-insensitive, on id and externalId case-exact; and, or, not, parentheses, pr, value filters', () => {
  assert.equal(is('userName eq "test.user@okta.local"'), true);
  assert.equal(is('USERNAME EQ "TEST.USER@OKTA.LOCAL"'), true, 'names and operators in any case');
  assert.equal(is('externalId eq "Ext-1"'), true);
  assert.equal(is('externalId eq "ext-1"'), false, 'caseExact');
  assert.equal(is('id eq "a1"'), false, 'caseExact');
  assert.equal(is('userName eq "x" or externalId eq "Ext-1"'), true);
  assert.equal(is('userName eq "x" and externalId eq "Ext-1"'), false);
  assert.equal(is('not (userName eq "x") and (active eq true or active eq false)'), true);
  assert.equal(is('name.givenName sw "te" and name.familyName ew "ER"'), true);
  assert.equal(is('emails[type eq "work" and value co "okta"]'), true);
  assert.equal(is('emails[type eq "home"]'), false);
  assert.equal(is('title pr'), false);
  assert.equal(is('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "test.user@okta.local"'), true);
  assert.equal(is('userName eq "a \\"quoted\\" name"'), false, 'escaped quotes parse');
});

test('filters the grammar refuses are 400 invalidFilter', () => {
  for (const bad of ['', 'userName', 'userName eq', 'userName foo "x"', '(userName eq "x"', 'userName eq "x" and', 'userName eq "open', 'userName eq bare', 'not userName eq "x"', 'a'.repeat(1001)]) {
    assert.equal(scimTypeOf(() => parseFilter(bad)), 'invalidFilter', bad);
  }
});

test('PATCH of a user: Okta\'s path-less replace, Entra ID\'s capitalised ops and "False", schema-qualified paths; unknown attributes ignored', () => {
  assert.deepEqual(userChanges(ops({ op: 'replace', value: { active: false } })), { active: false });
  assert.deepEqual(userChanges(ops({ op: 'Replace', path: 'active', value: 'False' })), { active: false });
  assert.deepEqual(userChanges(ops({ op: 'add', value: { active: 'True' } })), { active: true });
  assert.deepEqual(
    userChanges(ops(
      { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@microsoft.com' },
      { op: 'Replace', path: 'urn:ietf:params:scim:schemas:core:2.0:User:name.familyName', value: 'updatedFamilyName' },
      { op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Survey' },
      { op: 'replace', value: { 'name.givenName': 'G', externalId: 'E', title: 'Surveyor' } },
    )),
    { familyName: 'updatedFamilyName', givenName: 'G', externalId: 'E', title: 'Surveyor' },
  );
  assert.deepEqual(userChanges(ops({ op: 'remove', path: 'externalId' })), { externalId: null });
  assert.equal(scimTypeOf(() => userChanges(ops({ op: 'replace', path: 'active', value: 'maybe' }))), 'invalidValue');
  assert.equal(scimTypeOf(() => userChanges(ops({ op: 'remove', path: 'active' }))), 'mutability');
});

test('PatchOp bodies that are not one are 400: no schema, no operations, unknown op, remove without path, add without value', () => {
  assert.equal(scimTypeOf(() => patchOperations({ Operations: [{ op: 'add', value: {} }] })), 'invalidSyntax');
  assert.equal(scimTypeOf(() => patchOperations({ schemas: [PATCH_OP_SCHEMA], Operations: [] })), 'invalidSyntax');
  assert.equal(scimTypeOf(() => ops({ op: 'move', path: 'x' })), 'invalidSyntax');
  assert.equal(scimTypeOf(() => ops({ op: 'remove' })), 'noTarget');
  assert.equal(scimTypeOf(() => ops({ op: 'add', path: 'title' })), 'invalidValue');
});

test('PATCH of a group: members added by list, removed by Okta\'s value filter or Entra ID\'s list, replaced; rename path-less or by path', () => {
  assert.deepEqual(groupChanges(ops({ op: 'add', path: 'members', value: [{ value: 'u1', display: 'x' }, { value: 'u2' }] })), { addMembers: ['u1', 'u2'], removeMembers: [] });
  assert.deepEqual(groupChanges(ops({ op: 'remove', path: 'members[value eq "u1"]' })), { addMembers: [], removeMembers: ['u1'] });
  assert.deepEqual(groupChanges(ops({ op: 'remove', path: 'members[value eq "u1" or value eq "u2"]' })).removeMembers, ['u1', 'u2']);
  assert.deepEqual(groupChanges(ops({ op: 'Remove', path: 'members', value: [{ $ref: null, value: 'u3' }] })).removeMembers, ['u3']);
  assert.deepEqual(groupChanges(ops({ op: 'replace', path: 'members', value: [{ value: 'u4' }] })), { addMembers: [], removeMembers: [], replaceMembers: ['u4'] });
  assert.deepEqual(groupChanges(ops({ op: 'remove', path: 'members' })).replaceMembers, []);
  assert.deepEqual(groupChanges(ops({ op: 'replace', value: { id: 'g', displayName: 'New name' } })).displayName, 'New name');
  assert.deepEqual(groupChanges(ops({ op: 'Replace', path: 'displayName', value: 'Other' })).displayName, 'Other');
  assert.equal(scimTypeOf(() => groupChanges(ops({ op: 'remove', path: 'members[display eq "x"]' }))), 'invalidPath');
  assert.equal(scimTypeOf(() => groupChanges(ops({ op: 'add', path: 'members', value: ['u1'] }))), 'invalidValue');
});
