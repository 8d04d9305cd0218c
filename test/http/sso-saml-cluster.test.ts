// SAML replay across the nodes of a cluster (docs/identity.md "SAML", issue 33): an assertion
// ID is accepted once in the database, so one response posted to two nodes at once signs in
// on one of them only; the other refuses it as a replay (a page, never a 5xx), and a sign-in
// started on one node is finished by the ACS of another. Two composed nodes on one
// PostgreSQL database (test/support/two-nodes.ts); needs TEST_DATABASE_URL.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { TEST_DATABASE_URL } from '../support/database.ts';
import { twoNodes } from '../support/two-nodes.ts';
import { PUBLIC_URL } from '../support/app.ts';
import { caller } from '../support/projects.ts';
import { injectTransport, UserAgent } from '../support/oauth-client.ts';
import { samlResponse, startTestSamlIdp, type TestSamlIdp } from '../support/saml-idp.ts';
import { postAcs, requestAtIdp } from '../support/saml-flow.ts';
import { confirmSsoDomain } from '../../src/modules/sso/core/index.ts';

const ACME = 'a5700000-0000-4000-8000-000000000001';
const ACS = `${PUBLIC_URL}/sso/saml/${ACME}/acs`;
const SP_ENTITY = `${PUBLIC_URL}/sso/saml/${ACME}/metadata`;
const SAM = { email: 'sam@cluster.test', firstName: 'Sam', lastName: 'Surveyor', groups: [] };

describe('SAML across two nodes (PostgreSQL)', { skip: TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL (PostgreSQL)' }, () => {
  let nodes: Awaited<ReturnType<typeof twoNodes>>;
  let idp: TestSamlIdp;

  before(async () => {
    [nodes, idp] = await Promise.all([twoNodes(), startTestSamlIdp()]);
    const { a } = nodes;
    await a.seed({
      users: [{ email: 'owner@cluster.test', password: 'owner-password-1' }],
      accounts: [{ id: ACME, name: 'Cluster', owner: 'owner@cluster.test', subscriptions: [{ name: 'Basic' }] }],
    });
    const owner = caller(a, (await a.tokens('owner@cluster.test')).access_token);
    const put = await owner('PUT', `/api/2/accounts/${ACME}/sso/provider`, { protocol: 'saml', displayName: 'Cluster SAML', saml: { metadataXml: idp.metadataXml } });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const claimed = await owner('POST', `/api/2/accounts/${ACME}/sso/domains`, { domain: 'cluster.test' });
    await confirmSsoDomain({ store: a.core.store, clock: a.core.clock }, 'cluster.test', claimed.body.verificationToken);
  });
  after(async () => {
    await Promise.allSettled([idp?.close(), nodes?.close()]);
  });

  test('a sign-in started on node A is accepted by node B\'s ACS; the same response then refused by node A as a replay', async () => {
    const { agent, request } = await requestAtIdp(nodes.a.app, SAM.email, idp.ssoUrl);
    const response = samlResponse({ entityId: idp.entityId, acsUrl: ACS, audience: SP_ENTITY, inResponseTo: request.id, user: SAM });
    const onB = new UserAgent(injectTransport(nodes.b.app));
    const accepted = await postAcs(onB, ACME, response);
    assert.equal(accepted.status, 303, accepted.body);
    const replayed = await postAcs(agent, ACME, response);
    assert.equal(replayed.status, 400, replayed.body);
    assert.match(replayed.body, /used already/);
  });

  test('one response posted to both nodes at once: exactly one accepts it, the other refuses it as a replay', async () => {
    for (let round = 0; round < 5; round++) {
      const { agent, request } = await requestAtIdp(nodes.a.app, SAM.email, idp.ssoUrl);
      const response = samlResponse({ entityId: idp.entityId, acsUrl: ACS, audience: SP_ENTITY, inResponseTo: request.id, user: SAM });
      const onB = new UserAgent(injectTransport(nodes.b.app));
      const answers = await Promise.all([postAcs(agent, ACME, response), postAcs(onB, ACME, response)]);
      assert.deepEqual(answers.map((r) => r.status).sort(), [303, 400], answers.map((r) => `${r.status} ${r.body.slice(0, 200)}`).join('\n'));
      assert.match(answers.find((r) => r.status === 400)!.body, /used already/);
    }
  });
});
