// Cache invalidation as a consumer of domain events (src/core/events/invalidation.ts).
// The first table is the list of string scopes the use cases published before events
// existed (repos.changes.publish): each change still drops at least what it dropped then.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cacheScope, invalidatedScopes as scopesOf, onInvalidation } from '../../src/core/events/invalidation.ts';
import { tagListChanged } from '../../src/modules/tags/index.ts';
import { eventOf, projectEventOf, type DomainEvent, type StoredDomainEvent } from '../../src/core/events/domain-events.ts';
import { STORE_MODULES } from '../../src/modules/registries.ts';

/** The scopes an event makes stale on a node: the kernel's rows and the module list's (a moved module's events, e.g. crop.*). */
const invalidatedScopes = (event: DomainEvent) => scopesOf(event, STORE_MODULES.invalidation);

const A = 'a0000000-0000-4000-8000-000000000001';
const U = 'a0000000-0000-4000-8000-000000000002';
const P = 'a0000000-0000-4000-8000-000000000003';
const R = 'a0000000-0000-4000-8000-000000000004';
const G = 'a0000000-0000-4000-8000-000000000005';
const Z = 'a0000000-0000-4000-8000-000000000006';
const project = { id: P, accountId: A };

/** [the change, its event, the scopes published for it before events]. */
const BEFORE_EVENTS: [string, DomainEvent, string[]][] = [
  ['accounts.updateSubscription', eventOf('subscription.updated', A, 'subscription:s', { subscriptionId: 's', fields: ['name'] }), [`account:${A}`]],
  ['accountUsers.inviteUsers (new user)', eventOf('user.invited', A, `user:${U}`, { userId: U, invitedBy: U, roles: [] }), [`account:${A}`]],
  ['accountUsers.inviteUsers (existing user)', eventOf('user.added', A, `user:${U}`, { userId: U, invitedBy: U, roles: [] }), [`account:${A}`]],
  ['accountUsers.updateAccountRoles', eventOf('user.roles-changed', A, `user:${U}`, { userId: U, roles: ['administrator'] }), [`account:${A}`]],
  ['accountUsers.removeUsers', eventOf('user.removed', A, `user:${U}`, { userId: U }), [`account:${A}`]],
  ['groups.createGroup', eventOf('group.created', A, `group:${G}`, { groupId: G }), [`account:${A}`]],
  ['groups.updateGroup', eventOf('group.updated', A, `group:${G}`, { groupId: G }), [`account:${A}`]],
  ['groups.deleteGroup', eventOf('group.deleted', A, `group:${G}`, { groupId: G }), [`account:${A}`]],
  ['groups.addGroupMembers', eventOf('group.member-added', A, `group:${G}`, { groupId: G, userId: U }), [`account:${A}`]],
  ['groups.removeGroupMembers', eventOf('group.member-removed', A, `group:${G}`, { groupId: G, userId: U }), [`account:${A}`]],
  ['seed (roles and groups extension)', eventOf('account.seeded', A, `account:${A}`, { accountId: A }), [`account:${A}`]],
  ['invitations.accept (reset link)', eventOf('user.password-set', null, `user:${U}`, { userId: U, purpose: 'reset' }), [`user:${U}`]],
  ['admin.resetPassword', eventOf('user.password-cleared', null, `user:${U}`, { userId: U }), [`user:${U}`]],
  ['operator.reset', eventOf('service.reset', null, 'service', {}), ['*']],
  ['roles.createRole', eventOf('role.created', A, `role:${R}`, { roleId: R }), [`roles:${A}`]],
  ['roles.updateRole', eventOf('role.updated', A, `role:${R}`, { roleId: R }), [`role:${R}`, `roles:${A}`]],
  ['roles.deleteRole', eventOf('role.deleted', A, `role:${R}`, { roleId: R }), [`roles:${A}`]],
  ['projects.updateProject', projectEventOf('project.updated', project, `project:${P}`, { fields: ['name'], ownerId: U, subscriptionId: 's' }), [`project:${P}`]],
  ['projects.deleteProject', projectEventOf('project.deleted', project, `project:${P}`, { permanent: false }), [`project:${P}`]],
  ['projects.restoreProject', projectEventOf('project.restored', project, `project:${P}`, {}), [`project:${P}`]],
  ['covers.registerProjectCover', projectEventOf('project.cover-changed', project, `project:${P}`, {}), [`project:${P}`]],
  ['workzones.createWorkzone', projectEventOf('workzone.created', project, `workzone:${Z}`, { workzoneId: Z, parentId: Z }), [`project:${P}`]],
  ['workzones.deleteWorkzone', projectEventOf('workzone.deleted', project, `workzone:${Z}`, { workzoneId: Z }), [`project:${P}`]],
  [
    'workzone copy (destination project)',
    projectEventOf('workzone.copied', project, `workzone:${Z}`, {
      sourceProjectId: R, sourceProjectApi1Id: 'x', sourceWorkzoneId: Z, workzoneId: Z, newProject: true, copiedWorkzones: 1, copiedFiles: 0,
    }),
    [`project:${P}`],
  ],
  ['members.addMembers', projectEventOf('member.added', project, `project:${P}`, { memberType: 'user', memberId: U, roleId: R, expiresAt: null }), [`project:${P}`]],
  ['members.removeMembers', projectEventOf('member.removed', project, `project:${P}`, { memberType: 'group', memberId: G }), [`project:${P}`]],
  ['members.removeFromWorkzone', projectEventOf('member.access-removed', project, `project:${P}`, { memberType: 'user', memberId: U, workzoneId: Z }), [`project:${P}`]],
  ['signingKeys.rotate', eventOf('signing-keys.rotated', null, 'signing-keys', {}), ['signing-keys']],
];

test('every change drops at least the cache scopes it published before events existed', () => {
  for (const [change, event, scopes] of BEFORE_EVENTS) {
    const now = invalidatedScopes(event);
    for (const s of scopes) assert.ok(now.includes(s), `${change} (${event.type}) must still drop ${s}; drops ${JSON.stringify(now)}`);
  }
});

test('new account members and role changes also drop the user\'s own cached facts (a "no such account" read before the invitation)', () => {
  for (const type of ['user.invited', 'user.added', 'user.roles-changed', 'user.removed'] as const) {
    assert.ok(invalidatedScopes(eventOf(type, A, `user:${U}`, { userId: U, invitedBy: U, roles: [] } as never)).includes(cacheScope.user(U)), type);
  }
});

test('a lost LISTEN connection (events.missed) drops every cache, like a reset', () => {
  assert.deepEqual(invalidatedScopes(eventOf('events.missed', null, 'service', {})), ['*']);
});

test('contents (files, crops, tag lists, jobs, a zone\'s own fields) drop no access fact', () => {
  const accessScopes = [cacheScope.all, cacheScope.account(A), cacheScope.user(U), cacheScope.project(P), cacheScope.role(R), cacheScope.roles(A)];
  const contents: DomainEvent[] = [
    projectEventOf('file.registered', project, 'file:f', { fileId: 'f', workzoneId: Z, category: 'scan' }),
    projectEventOf('crop.updated', project, 'crop:c', { cropId: 'c', workzoneId: Z }),
    tagListChanged(project, 't', { tagsVersion: 2, tagCount: 1, pending: false }),
    eventOf('job.finished', A, 'job:j', { jobId: 'j', kind: 'workzone-copy', state: 'done', createdBy: U }),
    projectEventOf('workzone.updated', project, `workzone:${Z}`, { workzoneId: Z }),
  ];
  for (const e of contents) assert.deepEqual(invalidatedScopes(e).filter((s) => accessScopes.includes(s)), [], e.type);
});

test('what a zone\'s read model shows (its fields, scan and tag counts) drops the project\'s contents scope', () => {
  const changes: DomainEvent[] = [
    projectEventOf('workzone.updated', project, `workzone:${Z}`, { workzoneId: Z }),
    projectEventOf('file.registered', project, 'file:f', { fileId: 'f', workzoneId: Z, category: 'scan' }),
    projectEventOf('file.deleted', project, 'file:f', { fileId: 'f', workzoneId: Z, category: 'scan' }),
    projectEventOf('tag-list.created', project, 'tag-list:t', { tagListId: 't', workzoneId: Z }),
    // A list's update may move it (and its tags) to another zone.
    projectEventOf('tag-list.updated', project, 'tag-list:t', { tagListId: 't', workzoneId: Z }),
    projectEventOf('tag-list.deleted', project, 'tag-list:t', { tagListId: 't', workzoneId: Z }),
    tagListChanged(project, 't', { tagsVersion: 2, tagCount: 1, pending: false }),
  ];
  for (const e of changes) assert.deepEqual(invalidatedScopes(e).filter((s) => s !== cacheScope.projectLists(A)), [cacheScope.contents(P)], e.type);
  // Roles and zones: the project scope, which zone read models are tagged with as well.
  for (const [, e] of BEFORE_EVENTS.filter(([, e]) => e.type.startsWith('member.') || e.type.startsWith('workzone.'))) {
    assert.ok(invalidatedScopes(e).includes(cacheScope.project(P)), e.type);
  }
});

test('onInvalidation calls back once per scope of each delivered event', () => {
  const listeners: ((e: StoredDomainEvent) => void)[] = [];
  const seen: string[] = [];
  onInvalidation({ onEvent: (l) => listeners.push(l), moduleInvalidation: STORE_MODULES.invalidation }, (s) => seen.push(s));
  const e = eventOf('role.updated', A, `role:${R}`, { roleId: R });
  for (const l of listeners) l({ ...e, id: 'e1', occurredAt: new Date() } as StoredDomainEvent);
  assert.deepEqual(seen, [`role:${R}`, `roles:${A}`, `project-lists:${A}`]);
});

test('project lists: every change to what a list shows drops the account\'s lists (project-lists:<a>), and nothing else does', () => {
  const F = { fileId: 'f', workzoneId: Z, category: 'scan' };
  const T = { tagListId: 't', workzoneId: Z };
  const changesLists: DomainEvent[] = [
    ...BEFORE_EVENTS.map(([, e]) => e).filter((e) => ![
      'user.password-set', 'user.password-cleared', 'service.reset', 'role.created', 'role.deleted', 'signing-keys.rotated',
      'subscription.updated', 'user.invited', 'group.created', 'group.updated',
    ].includes(e.type)),
    projectEventOf('project.created', project, `project:${P}`, { subscriptionId: 's', ownerId: U, rootWorkzoneId: Z }),
    projectEventOf('file.registered', project, 'file:f', F),
    projectEventOf('file.deleted', project, 'file:f', F),
    projectEventOf('tag-list.deleted', project, 'tag-list:t', T),
    tagListChanged(project, 't', { tagsVersion: 2, tagCount: 1, pending: false }),
  ];
  for (const e of changesLists) assert.ok(invalidatedScopes(e).includes(cacheScope.projectLists(A)), e.type);
  const showsNothingListed: DomainEvent[] = [
    projectEventOf('workzone.updated', project, `workzone:${Z}`, { workzoneId: Z }),
    projectEventOf('file.updated', project, 'file:f', { fileId: 'f', workzoneId: Z, fields: ['name'] }),
    projectEventOf('crop.created', project, 'crop:c', { cropId: 'c', workzoneId: Z }),
    eventOf('role.created', A, `role:${R}`, { roleId: R }),
    // A role in use cannot be deleted; a list shows no subscription or group field; a new tag
    // list is empty, and a moved one stays in its project.
    eventOf('role.deleted', A, `role:${R}`, { roleId: R }),
    eventOf('subscription.updated', A, 'subscription:s', { subscriptionId: 's', fields: ['name'] }),
    eventOf('user.invited', A, `user:${U}`, { userId: U, invitedBy: U, roles: [] }),
    eventOf('group.created', A, `group:${G}`, { groupId: G }),
    eventOf('group.updated', A, `group:${G}`, { groupId: G }),
    projectEventOf('tag-list.created', project, 'tag-list:t', T),
    projectEventOf('tag-list.updated', project, 'tag-list:t', T),
    eventOf('user.password-set', null, `user:${U}`, { userId: U, purpose: 'reset' }),
    eventOf('job.finished', A, 'job:j', { jobId: 'j', kind: 'workzone-copy', state: 'done', createdBy: U }),
  ];
  for (const e of showsNothingListed) assert.ok(!invalidatedScopes(e).includes(cacheScope.projectLists(A)), e.type);
});

test('project events carry their account and the project in both id forms', () => {
  const e = projectEventOf('project.restored', project, `project:${P}`, {});
  assert.deepEqual(e.data, { accountId: A, projectId: P, projectApi1Id: 'oAAAAAAAQACAAAAAAAAAAw' });
  assert.equal(e.accountId, A);
});
