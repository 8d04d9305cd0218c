// The token service's JSON that is not a token pair: GET /oauth/userinfo's answer, with the
// claim names of OpenID Connect Core §5.1 (`sub` is the user's URN, as the token pair's `user_id`).
import { Type } from 'typebox';

export const UserInfo = Type.Object({
  sub: Type.String({ description: 'The user URN (the token pair\'s user_id)' }),
  email: Type.String(),
  name: Type.String({ description: 'First and last name; the e-mail address when both are empty' }),
  given_name: Type.String(),
  family_name: Type.String(),
});

export function userInfoOf(sub: string, p: { email: string; firstName: string; lastName: string }) {
  return {
    sub,
    email: p.email,
    name: `${p.firstName} ${p.lastName}`.trim() || p.email,
    given_name: p.firstName,
    family_name: p.lastName,
  };
}
