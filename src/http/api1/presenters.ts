// API 1 presenters: pure reshaping into API 1 shapes; every id is an API 1 id.
import { api1IdOf } from '../../core/ids/api1-id.ts';
import type { AccountUserView } from '../../core/users/index.ts';

/** An optional id in API 1's form. */
export const id1 = (uuid: string | null) => (uuid ? api1IdOf(uuid) : null);

export const api1 = {
  user: (v: AccountUserView) => ({
    id: v.user.api1Id,
    type: 'user' as const,
    firstname: v.user.firstName,
    lastname: v.user.lastName,
    company: v.user.company,
    title: v.user.title,
    email: v.user.email,
    accountIds: v.accountIds.map(api1IdOf),
  }),
};
