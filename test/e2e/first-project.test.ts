// The owner's first project, on the onboarding path a newcomer follows (README): the owner
// `npm run admin -- create-account` makes, and the example seed's owner, create a project on
// the first try; an owner made without the project-manager role is refused with a 403 that
// names the account role granting what is missing (`errorValues.grantedBy`). The admin
// commands that follow (a subscription, a role for someone else) keep the owner's role.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENGINES, TEST_DATABASE_URL, freshPostgresUrl } from '../support/database.ts';
import { runAdmin } from '../support/admin.ts';
import { startServer, stopAndRemove, type RunningServer } from '../support/server.ts';
import { bearerCall, operatorCall } from '../support/e2e-http.ts';
import { E2E_OPERATOR_TOKEN } from '../support/oauth-client.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

for (const engine of ENGINES) {
  describe(`the owner's first project on ${engine}`, () => {
    let env: Record<string, string>;
    let server: RunningServer | undefined;
    let drop = async () => {};
    before(async () => {
      env = { PATH: process.env.PATH!, HOME: process.env.HOME!, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-first-')) };
      if (engine === 'postgres') {
        const db = await freshPostgresUrl(TEST_DATABASE_URL!);
        env.DATABASE_URL = db.url;
        drop = db.drop;
      }
    });
    after(async () => {
      if (server) await stopAndRemove(server, { drop });
      else {
        await drop();
        fs.rmSync(env.DATA_DIR!, { recursive: true, force: true });
      }
    });
    const admin = async (args: string[], stdin?: string) => {
      const r = await runAdmin(env, [...args, '--json'], stdin);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      return JSON.parse(r.stdout);
    };
    const tokenOf = async (email: string): Promise<string> =>
      (await operatorCall(server!.url, E2E_OPERATOR_TOKEN, 'POST', '/tokens', { email })).access_token;
    const createProject = async (email: string, account: string, subscription: string) =>
      bearerCall(server!.url, await tokenOf(email), 'POST', `/api/2/accounts/${account}/projects`, { name: 'Site 1', subscriptionId: subscription });

    test('create-account makes the owner a project manager by default (--owner-roles to choose); later admin commands keep it', async () => {
      const acme = await admin(['create-account', '--name', 'Acme Surveying', '--owner', 'olivia@acme.example', '--password-stdin'], 'olivia-password-1');
      assert.deepEqual(acme.ownerRoles, ['projectManager']);
      const plain = await admin(['create-account', '--name', 'Bare', '--owner', 'bob@bare.example', '--owner-roles', 'member']);
      assert.deepEqual(plain.ownerRoles, []);
      const text = await runAdmin(env, ['create-account', '--name', 'Acme Surveying', '--owner', 'olivia@acme.example']);
      assert.match(text.stdout, /owner olivia@acme\.example \(.+\), roles: owner, project manager/);
      const bad = await runAdmin(env, ['create-account', '--name', 'X', '--owner', 'x@x.example', '--owner-roles', 'king']);
      assert.equal(bad.code, 2, bad.stderr);
      // A subscription and someone else's role afterwards: the seed documents they apply keep the owner's role.
      await admin(['create-subscription', '--account', 'Acme Surveying', '--name', 'Pro', '--scans', '50']);
      await admin(['create-subscription', '--account', 'Bare', '--name', 'Basic']);
      await admin(['add-role', '--account', 'Acme Surveying', '--email', 'mark@acme.example', '--role', 'project-lister']);
      await admin(['add-role', '--account', 'Acme Surveying', '--email', 'mark@acme.example', '--role', 'administrator']);
    });

    test('that owner, the example seed\'s owner and an added project manager create a project on the first try; an owner without the role is told which role grants it', async () => {
      server = await startServer({ ...env, OPERATOR_TOKEN: E2E_OPERATOR_TOKEN, SEED_FILE: path.join(ROOT, 'docs/seed.example.json'), LOG_LEVEL: 'warn' }, { dataDir: env.DATA_DIR });
      // Each account's first subscription, as its owner reads them.
      const subscriptionOf: Record<string, { id: string; accountId: string }> = {};
      for (const email of ['olivia@acme.example', 'olivia@acme.test', 'bob@bare.example']) {
        const token = await tokenOf(email);
        for (const a of (await bearerCall(server.url, token, 'GET', '/api/2/accounts')).body as { id: string; name: string }[]) {
          const subs = (await bearerCall(server.url, token, 'GET', `/api/2/accounts/${a.id}/subscriptions`)).body as { id: string }[];
          subscriptionOf[a.name] = { id: subs[0]!.id, accountId: a.id };
        }
      }
      const subsOf = async (account: string) => subscriptionOf[account]!.id;
      const accountId = async (account: string) => subscriptionOf[account]!.accountId;

      const made = await createProject('olivia@acme.example', await accountId('Acme Surveying'), await subsOf('Acme Surveying'));
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const seeded = await createProject('olivia@acme.test', await accountId('Acme'), await subsOf('Acme'));
      assert.equal(seeded.status, 201, JSON.stringify(seeded.body));

      const refused = await createProject('bob@bare.example', await accountId('Bare'), await subsOf('Bare'));
      assert.equal(refused.status, 403);
      assert.equal(refused.body.errorCode, 'create-project-forbidden');
      assert.deepEqual(refused.body.errorValues, { requiredPermissions: ['account:projects:create'], grantedBy: ['projectManager'] });

      // mark kept both roles added one after the other (administrator, project lister): he lists but may not create.
      const mark = await createProject('mark@acme.example', await accountId('Acme Surveying'), await subsOf('Acme Surveying'));
      assert.equal(mark.status, 403);
      const roles = await bearerCall(server.url, await tokenOf('olivia@acme.example'), 'GET', `/api/2/accounts/${await accountId('Acme Surveying')}/users`);
      const byEmail = Object.fromEntries((roles.body as { email: string; accountRoles?: string[] }[]).map((u) => [u.email, [...(u.accountRoles ?? [])].sort()]));
      assert.deepEqual(byEmail['mark@acme.example'], ['administrator', 'projectLister']);
      assert.deepEqual(byEmail['olivia@acme.example'], ['projectManager']);
    });
  });
}
