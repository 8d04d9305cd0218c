// The domain-event catalogue (src/core/events/domain-events.ts), checked at the HTTP
// level: each use case's state change writes its event to domain_events, with the
// account, subject and data the catalogue says, in the change's transaction (a refused
// change writes none); data never carries a secret.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, OPERATOR_TOKEN, type TestApp } from '../support/app.ts';
import type { Sql } from '../../src/adapters/postgres/sql.ts';
import { api1IdOf } from '../../src/core/ids/api1-id.ts';
import {
  A2, ACCOUNT_ID, SUB_A, addMembers, createProject, createZone, emailOf, outbox, projectWorld, uuidOf, type World,
} from '../support/projects.ts';
import { bytes, upload } from '../support/files.ts';

interface Row {
  type: string;
  accountId: string | null;
  subject: string;
  data: Record<string, unknown>;
}

let t: TestApp;
let w: World;
let sql: Sql;

before(async () => {
  t = await testApp({}, { wrapSql: (s) => (sql = s) });
  w = await projectWorld(t);
});
after(() => t.close());

/** The events written by `change`, in order. */
async function eventsOf(change: () => Promise<unknown>): Promise<Row[]> {
  const [{ last }] = (await sql.query<{ last: string | null }>('SELECT max(seq)::text AS last FROM domain_events')) as [{ last: string | null }];
  await change();
  return sql.query<Row>(
    `SELECT type, account_id AS "accountId", subject, data FROM domain_events WHERE seq > $1 ORDER BY seq`,
    [last ?? '0'],
  );
}

/** The one event of `type` among `rows` (asserted), its data checked to contain `data`. */
function one(rows: Row[], type: string, expected: { accountId?: string | null; subject?: string; data?: Record<string, unknown> } = {}): Row {
  const found = rows.filter((r) => r.type === type);
  assert.equal(found.length, 1, `one ${type} among ${JSON.stringify(rows.map((r) => r.type))}`);
  const row = found[0]!;
  if (expected.accountId !== undefined) assert.equal(row.accountId, expected.accountId, `${type} account`);
  if (expected.subject !== undefined) assert.equal(row.subject, expected.subject, `${type} subject`);
  for (const [k, v] of Object.entries(expected.data ?? {})) assert.deepEqual(row.data[k], v, `${type} data.${k}`);
  return row;
}

const projectData = (id: string) => ({ projectId: uuidOf(id), projectApi1Id: api1IdOf(uuidOf(id)) });

test('projects: created, updated (with the fields changed), deleted and restored each write their event with both project ids', async () => {
  let p: any;
  const created = await eventsOf(async () => (p = await createProject(w.as.projectOwner!)));
  one(created, 'project.created', {
    accountId: ACCOUNT_ID, subject: `project:${uuidOf(p.id)}`,
    data: { ...projectData(p.id), ownerId: w.ids.projectOwner, subscriptionId: SUB_A, rootWorkzoneId: uuidOf(p.rootWorkzoneId) },
  });
  const url = `${A2}/projects/${uuidOf(p.id)}`;
  one(await eventsOf(() => w.as.projectOwner!('PATCH', url, { name: 'Renamed' })), 'project.updated', { data: { ...projectData(p.id), fields: ['name'] } });
  one(await eventsOf(() => w.as.projectOwner!('DELETE', url)), 'project.deleted', { data: { ...projectData(p.id), permanent: false } });
  one(await eventsOf(() => w.as.projectOwner!('PUT', `${url}/restore`)), 'project.restored', { data: projectData(p.id) });
});

test('work zones and members: created, updated, deleted; member added and removed', async () => {
  const p = await createProject(w.as.projectOwner!);
  let z: any;
  one(await eventsOf(async () => (z = await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId))), 'workzone.created', {
    subject: `workzone:${uuidOf(z?.id ?? '')}`,
    data: { ...projectData(p.id), parentId: uuidOf(p.rootWorkzoneId) },
  });
  const zoneUrl = `${A2}/projects/${uuidOf(p.id)}/workzones/${uuidOf(z.id)}`;
  one(await eventsOf(() => w.as.projectOwner!('PUT', zoneUrl, { name: 'Zone renamed' })), 'workzone.updated', { data: { workzoneId: uuidOf(z.id) } });
  const added = await eventsOf(() => addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('dave'), role: w.roles.Viewer }] }));
  one(added, 'member.added', { subject: `project:${uuidOf(p.id)}`, data: { memberType: 'user', memberId: w.ids.dave, roleId: w.roles.Viewer, expiresAt: null } });
  const removed = await eventsOf(() => w.as.projectOwner!('DELETE', `${A2}/projects/${uuidOf(p.id)}/members/users/${w.ids.dave}`));
  one(removed, 'member.removed', { data: { memberType: 'user', memberId: w.ids.dave } });
  one(await eventsOf(() => w.as.projectOwner!('DELETE', zoneUrl)), 'workzone.deleted', { data: { workzoneId: uuidOf(z.id) } });
});

test('roles and groups: each write publishes its event; one group.member-added per user added', async () => {
  let role: any;
  one(await eventsOf(async () => (role = (await w.as.owner!('POST', `${A2}/roles`, { name: 'Evented', legacyPermissions: ['view3d'] })).body)), 'role.created', {
    accountId: ACCOUNT_ID, data: { roleId: uuidOf(role?.id ?? '') },
  });
  const roleUrl = `${A2}/roles/${uuidOf(role.id)}`;
  one(await eventsOf(() => w.as.owner!('PUT', roleUrl, { name: 'Evented', legacyPermissions: ['view3d', 'annotate'] })), 'role.updated', { data: { roleId: uuidOf(role.id) } });
  one(await eventsOf(() => w.as.owner!('DELETE', roleUrl)), 'role.deleted', { data: { roleId: uuidOf(role.id) } });
  let group: any;
  one(await eventsOf(async () => (group = (await w.as.owner!('POST', `${A2}/groups`, { name: 'Evented group' })).body)), 'group.created', {
    subject: `group:${uuidOf(group?.id ?? '')}`,
  });
  const addedRows = await eventsOf(() => w.as.owner!('POST', `${A2}/groups/${uuidOf(group.id)}/members`, [w.ids.erin, w.ids.frank]));
  assert.deepEqual(addedRows.filter((r) => r.type === 'group.member-added').map((r) => r.data.userId).sort(), [w.ids.erin, w.ids.frank].sort());
});

test('a change refused after it published an event writes none (its transaction rolls back)', async () => {
  const p = await createProject(w.as.projectOwner!);
  await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('grace'), role: w.roles.Viewer }] });
  const rows = await eventsOf(async () => {
    // grace's removal publishes member.removed; then the owner's removal is refused: all or nothing.
    const res = await w.as.projectOwner!('POST', `${A2}/projects/${uuidOf(p.id)}/members/bulk-remove`, { users: [w.ids.grace, w.ids.projectOwner] });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    const clash = await w.as.owner!('POST', `${A2}/groups`, { name: 'Evented group' }); // the name is taken
    assert.equal(clash.status, 409, JSON.stringify(clash.body));
  });
  assert.deepEqual(rows, []);
});

test('account users: an invitation (user.invited) carries no link or token; roles changed and removal have their events', async () => {
  const address = 'newcomer@proj.test';
  const invited = await eventsOf(() => w.as.owner!('POST', `${A2}/users/bulk-invite`, [{ email: address, roles: ['projectLister'] }]));
  const row = one(invited, 'user.invited', { accountId: ACCOUNT_ID, data: { invitedBy: w.ids.owner, roles: ['projectLister'] } });
  const mail = (await outbox(t)).find((m) => m.to === address)!;
  const token = mail.links[0]!.slice(mail.links[0]!.lastIndexOf('/') + 1);
  assert.ok(token.length > 20 && !JSON.stringify(row).includes(token), 'the invitation token is in the mail only');
  const userId = row.data.userId as string;
  one(await eventsOf(() => w.as.owner!('PUT', `${A2}/members/${userId}/roles`, ['projectManager'])), 'user.roles-changed', {
    subject: `user:${userId}`, data: { userId, roles: ['projectManager'] },
  });
  one(await eventsOf(() => w.as.owner!('DELETE', `${A2}/members`, [userId])), 'user.removed', { data: { userId } });
});

test('subscriptions: an update names the fields it changed', async () => {
  one(await eventsOf(() => w.as.owner!('PATCH', `${A2}/subscriptions/${SUB_A}`, { name: 'A renamed' })), 'subscription.updated', {
    accountId: ACCOUNT_ID, subject: `subscription:${SUB_A}`, data: { subscriptionId: SUB_A, fields: ['name'] },
  });
});

test('files: registered and deleted, with the category and zone', async () => {
  const p = await createProject(w.as.projectOwner!);
  let file: any;
  const registered = await eventsOf(async () => {
    [file] = await upload(t, w.as.projectOwner!, p.id, p.rootWorkzoneId, [{ name: 'Report', extension: 'pdf', content: bytes(200, 7) }]);
  });
  one(registered, 'file.registered', { subject: `file:${uuidOf(file.id)}`, data: { ...projectData(p.id), fileId: uuidOf(file.id), workzoneId: uuidOf(p.rootWorkzoneId) } });
  const fileUrl = `${A2}/projects/${uuidOf(p.id)}/files/${uuidOf(file.id)}`;
  one(await eventsOf(() => w.as.projectOwner!('DELETE', fileUrl)), 'file.deleted', { data: { fileId: uuidOf(file.id) } });
});

test('tag lists: created, then tag-list.changed with the new tagsVersion on every tag write', async () => {
  const p = await createProject(w.as.projectOwner!);
  const lists = `${A2}/projects/${uuidOf(p.id)}/tag-lists`;
  let list: any;
  one(await eventsOf(async () => (list = (await w.as.projectOwner!('POST', lists, { workzoneId: p.rootWorkzoneId, tagListType: '3d', name: 'Evented' })).body)), 'tag-list.created', {
    subject: `tag-list:${uuidOf(list?.id ?? '')}`,
  });
  const written = await eventsOf(() => w.as.projectOwner!('POST', `${lists}/${uuidOf(list.id)}/tags/bulk`, { create: [{ data: { id: 'a' } }, { data: { id: 'b' } }] }));
  one(written, 'tag-list.changed', { subject: `tag-list:${uuidOf(list.id)}`, data: { tagListId: uuidOf(list.id), tagsVersion: 1, tagCount: 2, pending: false } });
  one(await eventsOf(() => w.as.projectOwner!('DELETE', `${lists}/${uuidOf(list.id)}`)), 'tag-list.deleted');
});

test('a copy job: workzone.copied in its transaction, then job.finished with the requester\'s mail in one transaction', async () => {
  const p = await createProject(w.as.projectOwner!);
  const rows = await eventsOf(async () => {
    const res = await w.as.projectOwner!('POST', `${A2}/projects/${uuidOf(p.id)}/workzones/${uuidOf(p.rootWorkzoneId)}/copy`, { destinationName: 'Evented copy', destinationSubscription: SUB_A });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    await t.core.jobRunner.drain();
  });
  const copied = one(rows, 'workzone.copied', { data: { sourceProjectId: uuidOf(p.id), newProject: true } });
  one(rows, 'project.created', { data: { projectId: copied.data.projectId } });
  one(rows, 'job.finished', { accountId: ACCOUNT_ID, data: { kind: 'workzone-copy', state: 'done', createdBy: w.ids.projectOwner } });
  assert.ok((await outbox(t)).some((m) => m.to === emailOf('projectOwner') && m.subject === 'Copy of work zone finished: Evented copy'));
});

test('webhooks: a secret rotation writes webhook.secret-rotated without any secret; a replay writes webhook.delivery-replayed naming the delivery; a refused one writes nothing', async () => {
  const created = await w.as.owner!('POST', `${A2}/webhooks`, { url: 'https://example.com/hook', events: ['*'] });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const hook = uuidOf(created.body.id);
  let rotation: any;
  const rotated = await eventsOf(async () => (rotation = (await w.as.owner!('POST', `${A2}/webhooks/${hook}/rotate-secret`)).body));
  const row = one(rotated, 'webhook.secret-rotated', {
    accountId: ACCOUNT_ID, subject: `webhook:${hook}`,
    data: { accountId: ACCOUNT_ID, webhookId: hook, previousSecretExpiresAt: rotation.previousSecretExpiresAt },
  });
  const text = JSON.stringify(row);
  assert.ok(!text.includes('whsec_') && !text.includes(rotation.secret.slice('whsec_'.length)) && !text.includes(created.body.secret.slice('whsec_'.length)), text);
  // The '*' endpoint has a delivery of its own webhook.created; replaying it writes the event.
  const [delivery] = (await w.as.owner!('GET', `${A2}/webhooks/${hook}/deliveries?state=pending`)).body.filter((d: { type: string }) => d.type === 'webhook.created');
  assert.ok(delivery, 'the endpoint has its webhook.created delivery');
  const replayed = await eventsOf(async () => assert.equal((await w.as.owner!('POST', `${A2}/webhooks/${hook}/deliveries/${delivery.id}/replay`)).status, 202));
  one(replayed, 'webhook.delivery-replayed', {
    accountId: ACCOUNT_ID, subject: `webhook:${hook}`,
    data: { accountId: ACCOUNT_ID, webhookId: hook, deliveryId: delivery.id, eventId: delivery.eventId, eventType: 'webhook.created' },
  });
  // Not deliverable: the replay itself added no delivery to the '*' endpoint.
  assert.deepEqual((await w.as.owner!('GET', `${A2}/webhooks/${hook}/deliveries`)).body.filter((d: { type: string }) => d.type === 'webhook.delivery-replayed'), []);
  const refused = await eventsOf(async () => {
    assert.equal((await w.as.projectManager!('POST', `${A2}/webhooks/${hook}/rotate-secret`)).status, 403);
    assert.equal((await w.as.owner!('POST', `${A2}/webhooks/${hook}/deliveries/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/replay`)).status, 404);
  });
  assert.deepEqual(refused, []);
  assert.equal((await w.as.owner!('DELETE', `${A2}/webhooks/${hook}`)).status, 204);
});

test('operator: a signing-key rotation and a reset each write their system event (no account)', async () => {
  const op = { authorization: `Bearer ${OPERATOR_TOKEN}` };
  const rotated = await eventsOf(() => t.app.inject({ method: 'POST', url: '/_operator/signing-keys/rotate', headers: op }));
  one(rotated, 'signing-keys.rotated', { accountId: null });
  await t.app.inject({ method: 'POST', url: '/_operator/reset', headers: op });
  // The reset empties domain_events with every other table, in the transaction that writes service.reset.
  assert.deepEqual(await sql.query('SELECT type, account_id AS "accountId" FROM domain_events'), [{ type: 'service.reset', accountId: null }]);
});
