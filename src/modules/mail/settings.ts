// The mail module's settings (docs/operations.md "Mail relay"): where the service's mail goes
// and how the relay retries. SMTP_URL is checked at start and its password never echoed.
import { ConfigError, bool, fail, integer, isLoopbackHost } from '../../kernel-config.ts';
import type { ModuleSettings } from '../contract.ts';

/**
 * Where the service's mail goes: `smtp` (SMTP_URL: relayed), `log` (MAIL_TO_LOG, the local
 * mode: printed to the log, never sent), `outbox` (neither: it stays in the outbox, read with
 * `npm run admin -- outbox`).
 */
export type MailDelivery = 'smtp' | 'log' | 'outbox';

export interface MailConfig {
  /** SMTP_URL (smtp:// or smtps://, credentials in the user-info; never printed): unset, mail stays in the outbox. */
  smtpUrl: string | undefined;
  /** MAIL_TO_LOG: without SMTP_URL, each mail (its links included) is printed to the log; only on a loopback HOST. */
  toLog: boolean;
  delivery: MailDelivery;
  /** MAIL_FROM: the From header (default: Scanbase <no-reply@PUBLIC_URL's host>). */
  from: string;
  /** MAIL_MAX_ATTEMPTS: relay attempts before a mail fails for good. */
  maxAttempts: number;
  /** MAIL_RETRY_SECONDS: the wait after the first failed attempt, doubling after each. */
  firstRetrySeconds: number;
  /** MAIL_RELAY_INTERVAL: seconds between two relay passes of a node. */
  relayIntervalSeconds: number;
}

const SMTP_EXPECTED = 'smtp://[user:password@]host[:port] or smtps://… (nodemailer options as query parameters)';

export const mailSettings: ModuleSettings<{ mail: MailConfig }> = {
  rows: [
    {
      env: 'SMTP_URL',
      default: 'unset',
      does:
        'outgoing mail (invitations, password resets, notices): `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://…:465`; nodemailer options may follow as query parameters (e.g. `?requireTLS=true`). ' +
        'Every node relays the outbox over it, each mail by one node at a time, with retries (see [docs/operations.md](docs/operations.md#mail-relay)). ' +
        'Unset: **no e-mail is sent** (the start-up log warns): mail stays in the outbox, read with `npm run admin -- outbox` (also while the service runs) or the operator API; see [Mail without SMTP](#mail-without-smtp). The password is never logged',
    },
    {
      env: 'MAIL_TO_LOG',
      default: 'off',
      does:
        "`1`/`true`/`yes`/`on`, without `SMTP_URL`: the local mode: every mail, its links included, is printed to the service's log instead of being sent. " +
        'Refused unless `HOST` is a loopback address (`127.0.0.1`, `::1`, `localhost`): one-time links never go to the log of a service others can reach',
    },
    { env: 'MAIL_FROM', default: "`Scanbase <no-reply@<PUBLIC_URL's host>>`", does: 'the `From` of relayed mail: `address` or `Name <address>`' },
    { env: 'MAIL_MAX_ATTEMPTS', default: '`8`', does: 'relay attempts of one mail before it is marked failed (1–100)' },
    { env: 'MAIL_RETRY_SECONDS', default: '`60`', does: "the wait after a mail's first failed attempt, doubling after each (at most 6 hours between two attempts) (1–86400)" },
    { env: 'MAIL_RELAY_INTERVAL', default: '`5`', does: 'seconds between two relay passes of a node (1–3600): how long a new mail may wait before it is sent' },
  ],
  read(env, { publicUrl, host }) {
    const smtpUrl = env.SMTP_URL || undefined;
    if (smtpUrl !== undefined) {
      let url: URL;
      try {
        url = new URL(smtpUrl);
      } catch {
        return fail('SMTP_URL', smtpUrl, SMTP_EXPECTED);
      }
      if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) fail('SMTP_URL', smtpUrl, SMTP_EXPECTED);
    }
    // The local mode prints one-time links (invitations, password resets) to the log: a log
    // may be shipped or shared, so only a service nobody else can reach may do it.
    const toLog = bool(env, 'MAIL_TO_LOG');
    if (toLog && smtpUrl !== undefined) throw new ConfigError('MAIL_TO_LOG prints mail instead of sending it: unset it, or unset SMTP_URL');
    if (toLog && !isLoopbackHost(host)) {
      throw new ConfigError(`MAIL_TO_LOG prints one-time links to the log: it is refused unless HOST is a loopback address (127.0.0.1, ::1, localhost), not ${JSON.stringify(host)}`);
    }
    const from = env.MAIL_FROM || `Scanbase <no-reply@${new URL(publicUrl).hostname}>`;
    if (!/^[^\r\n]*<?[^\s<>@]+@[^\s<>@]+>?$/.test(from)) fail('MAIL_FROM', from, 'an address, or Name <address>');
    return {
      mail: {
        smtpUrl,
        toLog,
        delivery: smtpUrl !== undefined ? 'smtp' : toLog ? 'log' : 'outbox',
        from,
        maxAttempts: integer(env, 'MAIL_MAX_ATTEMPTS', 8, 1, 100),
        firstRetrySeconds: integer(env, 'MAIL_RETRY_SECONDS', 60, 1, 24 * 3600),
        relayIntervalSeconds: integer(env, 'MAIL_RELAY_INTERVAL', 5, 1, 3600),
      },
    };
  },
};
