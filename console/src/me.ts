// The signed-in user's own things (docs/console.md "Your account"): who he is
// (/oauth/userinfo), his pending invitations to accounts (GET /api/2/me/invitations, accept
// or decline), "Sign out everywhere" (POST /api/2/me/sign-out-everywhere, then the console's
// own session ends), and the prompt after a password reset (the reset's last page links
// /console/?after=password-reset).
import { useEffect, useState } from 'preact/hooks';
import { api, uuidOf } from './api.ts';
import { endedEverywhere, onAuthChange } from './auth.ts';
import { apiPath } from './paths.ts';
import type { MyInvitation } from './types.ts';

export interface Me {
  sub: string;
  email: string;
  name: string;
}

let me: Promise<Me> | null = null;
// Another user may sign in in this tab: forget who the last one was.
onAuthChange(() => {
  me = null;
});

/** Who the console is signed in as (asked once per session). */
export function whoAmI(): Promise<Me> {
  if (!me) {
    me = api<Me>('GET', '/oauth/userinfo');
    me.catch(() => {
      me = null; // asked again next time; the caller shows the failure
    });
  }
  return me;
}

// Invitations change when one is answered (here or on another screen): every view of them reloads.
let invitationsVersion = 0;
const invitationListeners = new Set<() => void>();
const invitationsChanged = (): void => {
  invitationsVersion++;
  for (const f of invitationListeners) f();
};

/** A number that grows each time the caller's invitations (and so his accounts) changed. */
export function useInvitationsVersion(): number {
  const [v, setV] = useState(invitationsVersion);
  useEffect(() => {
    const f = () => setV(invitationsVersion);
    invitationListeners.add(f);
    return () => void invitationListeners.delete(f);
  }, []);
  return v;
}

export const myInvitations = (): Promise<MyInvitation[]> => api<MyInvitation[]>('GET', '/api/2/me/invitations');

/** Accepts (the caller becomes a member of the account, with its roles) or declines an invitation. */
export async function answerInvitation(inv: MyInvitation, answer: 'accept' | 'decline'): Promise<void> {
  const account = uuidOf(inv.accountId);
  await api('POST', answer === 'accept' ? apiPath`/api/2/me/invitations/${account}/accept` : apiPath`/api/2/me/invitations/${account}/decline`);
  invitationsChanged();
}

/**
 * Ends every session of the user (every browser, the CLI's and applications' tokens, this
 * console's too), then the console's own: signed out with the reason `everywhere`. If the
 * service refuses, nothing changed and the error is thrown.
 */
export async function signOutEverywhere(): Promise<void> {
  await api('POST', '/api/2/me/sign-out-everywhere');
  try {
    await endedEverywhere();
  } catch (e) {
    // The service already ended every session, the cookie's token with them: an unanswered
    // clean-up leaves only a revoked token in the cookie, refused at the next start.
    console.warn('console session: the cookie was not cleared', e);
  }
}

const AFTER_RESET = 'scanbase.console.after-reset';

/**
 * Arriving from the password reset's last page (`?after=password-reset`): remembered for
 * this tab (it survives the sign-in round trip), and the address is answered without it.
 * Answers the address to show instead, or null when there was nothing to note.
 */
export function noteAfterReset(path: string, query: URLSearchParams): string | null {
  if (query.get('after') !== 'password-reset') return null;
  sessionStorage.setItem(AFTER_RESET, '1');
  const rest = new URLSearchParams(query);
  rest.delete('after');
  return rest.size ? `${path}?${rest}` : path;
}
export const afterReset = (): boolean => sessionStorage.getItem(AFTER_RESET) === '1';
export const forgetAfterReset = (): void => sessionStorage.removeItem(AFTER_RESET);
