// API 1 schema of the users module: a user of the account (API 1's field names).
import { Type } from 'typebox';

export const User = Type.Object({
  id: Type.String(),
  type: Type.Literal('user'),
  firstname: Type.String(),
  lastname: Type.String(),
  company: Type.String(),
  title: Type.String(),
  email: Type.String(),
  accountIds: Type.Array(Type.String()),
});
