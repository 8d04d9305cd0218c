// The mails of an invitation to join an account (docs/security.md "Invitations"): pure.
// The account's name and the inviter's name are written by the inviting side, so they are
// quoted, one line, bounded, and stripped of anything a mail reader would turn into a link
// (addresses, domain names, e-mail addresses): an invitation cannot carry an attacker's
// link or a message dressed as the service's own text.
import type { Mail } from '../../mail/index.ts';

/** What a quoted value may hold at most, in characters (longer values are cut with "…"). */
export const QUOTED_MAX = 80;

const LINK_REMOVED = '[link removed]';
// Control characters, bidirectional overrides and zero-width characters: nothing that can
// reorder or hide the text around it.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
/** A scheme (http:, mailto:, javascript:…) with what follows it, a www. address, an e-mail address, a domain name. */
const LINKLIKE = [
  /\b[a-z][a-z0-9+.-]*:\/*[^\s"“”]+/gi,
  /\bwww\.[^\s"“”]+/gi,
  /[^\s"“”@]+@[^\s"“”@]+/g,
  /\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9]\b/gi,
];

/**
 * Text written by the inviting side, as a mail quotes it: one line, invisible characters
 * removed, link-like runs replaced by "[link removed]", at most QUOTED_MAX characters,
 * between typographic quotes (its own quotes become plain apostrophes).
 */
export function quoteUntrusted(text: string, maxChars = QUOTED_MAX): string {
  let s = text.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim();
  for (const re of LINKLIKE) s = s.replace(re, LINK_REMOVED);
  s = s.replace(/["“”]/g, "'");
  if ([...s].length > maxChars) s = `${[...s].slice(0, maxChars - 1).join('')}…`;
  return `“${s || '?'}”`;
}

export interface InvitationMailInput {
  to: string;
  accountName: string;
  /** The inviter as the account knows him: his names, else his e-mail. */
  inviter: string;
  publicUrl: string;
  /** A user without a password: the one-time set-password link (accepting it accepts the invitation). */
  setPasswordLink?: { url: string; token: string };
}

/** The invitation mail: to set a password (a new user), or to accept on the account page (a user who can sign in). */
export function invitationMail(p: InvitationMailInput): Mail {
  const account = quoteUntrusted(p.accountName);
  const who = quoteUntrusted(p.inviter);
  const head =
    `${who} invites you to join the account ${account} on Scanbase.\n` +
    'The quoted names were written by that account, not by Scanbase.\n\n';
  const tail = '\n\nIf you do not know this account, ignore this mail: nothing changes unless you accept.';
  if (p.setPasswordLink) {
    return {
      to: p.to,
      subject: 'An invitation to join an account on Scanbase',
      text: `${head}To accept, set your password (the link is valid for 7 days): ${p.setPasswordLink.url}${tail}`,
      links: [p.setPasswordLink.url],
      secret: p.setPasswordLink.token,
    };
  }
  const page = `${p.publicUrl}/account`;
  return {
    to: p.to,
    subject: 'An invitation to join an account on Scanbase',
    text: `${head}To accept or decline it, sign in on your account page: ${page}${tail}`,
    links: [page],
  };
}
