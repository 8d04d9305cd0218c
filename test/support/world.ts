// The account world of the authorization tests: one account with a user in each
// account-level role, and a user of another account.
export const ACCOUNT_ID = '11111111-1111-4111-8111-111111111111';
export const OTHER_ACCOUNT_ID = '22222222-2222-4222-8222-222222222222';
export const SUBSCRIPTION_ID = '33333333-3333-4333-8333-333333333333';
export const GROUP_ID = '44444444-4444-4444-8444-444444444444';
export const ROLE_ID = '55555555-5555-4555-8555-555555555555';

export const ACTORS = ['owner', 'administrator', 'projectManager', 'projectLister', 'member', 'outsider'] as const;
export type ActorName = (typeof ACTORS)[number];

export const email = (a: ActorName | string) => `${a.toLowerCase()}@acme.test`;

export const WORLD_SEED = {
  users: [...ACTORS, 'target', 'other-owner'].map((a) => ({ email: email(a), password: `${a}-password-1`, firstName: a, lastName: 'Test' })),
  accounts: [
    {
      id: ACCOUNT_ID,
      name: 'Acme',
      owner: email('owner'),
      administrators: [email('administrator')],
      projectManagers: [email('projectManager')],
      projectListers: [email('projectLister')],
      members: [email('member'), email('target')],
      subscriptions: [{ id: SUBSCRIPTION_ID, name: 'Pro', end: '2027-01-01T00:00:00Z', inviteAccountOwnerInNewProjects: true }],
      roles: [{ id: ROLE_ID, name: 'Surveyor', legacyPermissions: ['view3d', 'upload'] }],
      groups: [{ id: GROUP_ID, name: 'Field team', users: [email('member')] }],
    },
    {
      id: OTHER_ACCOUNT_ID,
      name: 'Other',
      owner: email('other-owner'),
      members: [email('outsider')],
      subscriptions: [{ name: 'Basic' }],
    },
  ],
};
