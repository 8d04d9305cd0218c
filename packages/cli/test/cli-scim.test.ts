// @engine-independent: the token's SQL is the service's, covered on both engines by test/http/scim.test.ts.
// `scanbase scim token …` against a started service (docs/identity.md "SCIM provisioning"): an
// administrator creates the token (printed once) and the service answers SCIM with it; show
// never prints it; create again rotates it; revoke ends it; a project manager is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emailOf } from '../../../test/support/projects.ts';
import { ok, signedInCli } from './support/signed-in.ts';

const session = signedInCli({ name: 'scim', profiles: { admin: emailOf('administrator'), pm: emailOf('projectManager') } });

const cli = (profile: string, args: string[]) => session.run(args, { profile });
const scimStatus = async (token: string) => (await fetch(`${session.world.url}/scim/v2/Users`, { headers: { authorization: `Bearer ${token}` } })).status;

test('cli: scim token create prints the token once, show never does, create again rotates, revoke ends it; a project manager is refused', async () => {
  const first = JSON.parse(ok(await cli('admin', ['scim', 'token', 'create', '--json'])).stdout);
  assert.match(first.token, /^scim_/);
  assert.equal(await scimStatus(first.token), 200);
  const shown = ok(await cli('admin', ['scim', 'token', 'show']));
  assert.match(shown.stdout, /hasToken\s+true/);
  assert.ok(!shown.stdout.includes(first.token));
  const second = JSON.parse(ok(await cli('admin', ['scim', 'token', 'create', '--json'])).stdout);
  assert.equal(await scimStatus(first.token), 401, 'rotated: the first is refused at once');
  assert.equal(await scimStatus(second.token), 200);
  ok(await cli('admin', ['scim', 'token', 'revoke']));
  assert.equal(await scimStatus(second.token), 401);
  const refused = await cli('pm', ['scim', 'token', 'create']);
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /manage-scim-forbidden/);
});
