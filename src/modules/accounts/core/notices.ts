// Notices about the deployment that an account's people should see (our extension,
// GET /api/2/accounts/{a}/notices; the console shows each as a banner). Pure: what the
// settings mean for the people of an account, and who is told.
//
// Today one fact: where the service's mail goes. Without SMTP, invitations and "Forgot
// password?" links reach nobody; those who invite users (account:users:write: the owner,
// administrators, project managers) are told so, and how the links can be read.
import type { AnyPermission } from '../../../core/permissions/catalog.ts';

export interface AccountNotice {
  /** Stable: `mail-not-sent` (no transport: the outbox keeps the mail), `mail-to-log` (MAIL_TO_LOG). */
  code: 'mail-not-sent' | 'mail-to-log';
  severity: 'warning' | 'info';
  title: string;
  message: string;
}

/** Where mail goes (config.ts MailDelivery). */
export type MailDelivery = 'smtp' | 'log' | 'outbox';

const MAIL_NOTICES: Record<Exclude<MailDelivery, 'smtp'>, AccountNotice> = {
  outbox: {
    code: 'mail-not-sent',
    severity: 'warning',
    title: 'E-mail is off',
    message:
      'This Scanbase sends no e-mail (SMTP_URL is not set): invitations and password-reset links are not delivered. ' +
      'Whoever runs the service reads them with `npm run admin -- outbox` and passes them on, or sets SMTP_URL.',
  },
  log: {
    code: 'mail-to-log',
    severity: 'info',
    title: 'E-mail goes to the log',
    message:
      'This Scanbase prints its e-mail to its log instead of sending it (MAIL_TO_LOG, a local mode): ' +
      'invitation and password-reset links appear where the service runs.',
  },
};

/** Who is told about mail: those who invite users. */
export const MAIL_NOTICE_PERMISSION: AnyPermission = 'account:users:write';

/** The notices a caller holding `held` in an account sees. */
export function accountNotices(delivery: MailDelivery, held: ReadonlySet<string>): AccountNotice[] {
  if (delivery === 'smtp' || !held.has(MAIL_NOTICE_PERMISSION)) return [];
  return [MAIL_NOTICES[delivery]];
}
