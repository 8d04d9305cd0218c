// The users module's error codes (src/core/error-codes.ts ModuleErrorCodes, by declaration
// merging); their rows (USER_ERROR_CODES) go to the assembled catalogue through module.ts.
// invalid-user-urn and user-not-found stay in the kernel's catalogue: the URN parser and
// every module that resolves a user answer them; user-email-not-found too (the operator's).
import { codeRow } from '../../../core/error-codes.ts';

export const USER_ERROR_CODES = {
  'invalid-credentials': codeRow(401, 'ours'),
  'list-users-forbidden': codeRow(403, 'spec'),
  'view-user-forbidden': codeRow(403, 'spec'),
  'create-user-forbidden': codeRow(403, 'spec'),
  'remove-user-from-account-forbidden': { status: [403], defined: ['spec', 'vendor'] },
  'update-user-account-roles-forbidden': { status: [403], defined: ['spec', 'vendor'] },
  'delete-account-owner-forbidden': { status: [403], defined: ['spec', 'vendor'] },
  'invitation-not-found': codeRow(404, 'ours'),
  'too-many-sign-in-attempts': codeRow(429, 'ours'),
  'too-many-password-reset-requests': codeRow(429, 'ours'),
  'too-many-invitations': codeRow(429, 'ours'),
} as const;

type UserErrorCodesRows = typeof USER_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends UserErrorCodesRows {}
}
