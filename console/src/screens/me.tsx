// The signed-in user's own screens and prompts (docs/console.md "Your account"): the
// account menu of the top bar, the "Your account" screen (/console/me: who he is, his
// invitations, sign out everywhere), his pending invitations where he looks first (the
// accounts screen), the "Sign out everywhere" dialog, what the console says once signed out
// (why, when it knows), and the prompt after a password reset.
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { SignedOutReason } from '../auth.ts';
import { accountRoleNames, formatDate, formatFullDate } from '../format.ts';
import { afterReset, answerInvitation, forgetAfterReset, myInvitations, signOutEverywhere, useInvitationsVersion, whoAmI } from '../me.ts';
import { onLinkClick } from '../router.ts';
import type { MyInvitation } from '../types.ts';
import { Breadcrumbs, Dialog, Empty, ErrorBox, Icon, IconButton, LoadState, toast, useAction, useLoad } from '../ui.tsx';

/** What signing out everywhere does, said before and after. */
const EVERYWHERE =
  'Every session of yours ends: this browser and every other one signed in as you, and the access of the command-line tool and of every application you signed in to.';

const EVERYWHERE_DONE =
  'Every session of yours has ended: this browser and every other one signed in as you, and the access of the command-line tool and of every application you signed in to.';

/** The invitations of the signed-in user, reloaded when one is answered anywhere. */
function useMyInvitations() {
  const version = useInvitationsVersion();
  return useLoad(myInvitations, `my invitations ${version}`);
}

/** "Sign out everywhere": [open, element]. Confirmed in a dialog; the console is signed out when the service has done it. */
export function useSignOutEverywhere(): [() => void, preact.JSX.Element] {
  const [open, setOpen] = useState(false);
  const [run, busy, error, clear] = useAction();
  const close = () => {
    clear();
    setOpen(false);
  };
  const element = (
    <Dialog open={open} title="Sign out everywhere?" onClose={close}>
      <p>{EVERYWHERE}</p>
      <p>Use it when a device was lost or someone else may know your password. You will sign in again here.</p>
      <ErrorBox error={error} />
      <footer>
        <button type="button" class="secondary" onClick={close}>
          Cancel
        </button>
        <button
          type="button"
          class="danger-solid"
          aria-busy={busy ? 'true' : undefined}
          disabled={busy}
          onClick={() =>
            void run(signOutEverywhere).then((ok) => {
              if (!ok) return;
              setOpen(false);
              forgetAfterReset();
            })
          }
        >
          Sign out everywhere
        </button>
      </footer>
    </Dialog>
  );
  return [() => setOpen(true), element];
}

/** The top bar's account menu: who is signed in, "Your account" (with the number of invitations waiting), "Sign out everywhere". */
export function AccountMenu() {
  const [open, setOpen] = useState(false);
  const me = useLoad(whoAmI, 'me');
  const invitations = useMyInvitations();
  const [askEverywhere, everywhereDialog] = useSignOutEverywhere();
  const ref = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const waiting = invitations.data?.length ?? 0;
  useEffect(() => {
    if (!open) return;
    const outside = (e: Event) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    const escape = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);
  const plural = waiting === 1 ? '' : 's';
  // The name is the visible text with what the eye gets from the icon and the badge: "Your
  // account: {e-mail} 2 invitations waiting" (at phone width, without the e-mail).
  return (
    <div class="account-menu" ref={ref}>
      <button type="button" class="secondary small" aria-expanded={open} aria-controls={menuId} onClick={() => setOpen(!open)}>
        <Icon name="user" />
        <span class="visually-hidden">Your account: </span>
        {me.data ? <span class="who">{me.data.email}</span> : null}
        {waiting ? (
          <span class="badge">
            {waiting}
            <span class="visually-hidden"> invitation{plural} waiting</span>
          </span>
        ) : null}
      </button>
      <div id={menuId} class="menu" hidden={!open}>
        {me.data ? (
          <p class="muted">
            Signed in as <strong>{me.data.email}</strong>
          </p>
        ) : null}
        <a
          href="/console/me"
          onClick={(e) => {
            setOpen(false);
            onLinkClick(e);
          }}
        >
          <Icon name="user" /> Your account{waiting ? ` (${waiting} invitation${plural})` : ''}
        </a>
        <button
          type="button"
          class="plain"
          onClick={() => {
            setOpen(false);
            askEverywhere();
          }}
        >
          <Icon name="signOutEverywhere" /> Sign out everywhere
        </button>
      </div>
      {everywhereDialog}
    </div>
  );
}

/** One invitation: the account and the inviter as they name themselves (in quotes: their own words), Accept and Decline. */
function InvitationItem(props: { inv: MyInvitation }) {
  const inv = props.inv;
  const [run, busy, error] = useAction();
  const answer = (a: 'accept' | 'decline') =>
    void run(() => answerInvitation(inv, a)).then((ok) => ok && toast(a === 'accept' ? `You joined “${inv.accountName}”` : `Invitation to “${inv.accountName}” declined`));
  return (
    <li class="card invitation">
      <h3>“{inv.accountName}”</h3>
      <p class="muted">
        {inv.invitedBy ? <>Invited by “{inv.invitedBy}”, </> : 'Invited '}
        <time dateTime={inv.invitedAt} title={formatFullDate(inv.invitedAt)} class="nowrap">
          {formatDate(inv.invitedAt)}
        </time>
        {inv.roles.length ? <> · as {accountRoleNames(inv.roles)}</> : null}
      </p>
      <ErrorBox error={error} />
      <div class="card-actions">
        <button type="button" class="secondary small" disabled={busy} aria-label={`Decline the invitation to “${inv.accountName}”`} onClick={() => answer('decline')}>
          Decline
        </button>
        <button type="button" class="small" disabled={busy} aria-busy={busy ? 'true' : undefined} aria-label={`Accept the invitation to “${inv.accountName}”`} onClick={() => answer('accept')}>
          <Icon name="ok" /> Accept
        </button>
      </div>
    </li>
  );
}

/**
 * The user's pending invitations to accounts. `quiet`: nothing at all when there is none
 * (the accounts screen), else an empty state (the account screen).
 */
export function MyInvitations(props: { quiet?: boolean }) {
  const invitations = useMyInvitations();
  const list = invitations.data ?? [];
  if (props.quiet && !list.length && !invitations.error) return null;
  return (
    <section class="invitations" aria-labelledby="invitations-h">
      <h2 id="invitations-h">
        <Icon name="mail" /> Invitations {list.length ? <span class="badge">{list.length}</span> : null}
      </h2>
      <LoadState of={[invitations]} what="your invitations" />
      {list.length ? (
        <>
          <p class="muted">Accounts that invited you. You join one only if you accept; names in quotes are the accounts' own.</p>
          <ul class="cards">
            {list.map((inv) => (
              <InvitationItem key={inv.accountId} inv={inv} />
            ))}
          </ul>
        </>
      ) : invitations.data ? (
        <Empty icon="mail">No invitation is waiting for you.</Empty>
      ) : null}
    </section>
  );
}

/** /console/me: who is signed in, his invitations, "Sign out everywhere", how to change the password. */
export function MeScreen() {
  const me = useLoad(whoAmI, 'me');
  const [askEverywhere, everywhereDialog] = useSignOutEverywhere();
  return (
    <main id="main" class="page narrow">
      <Breadcrumbs trail={[{ label: 'Your account' }]} />
      <h1>Your account</h1>
      <LoadState of={[me]} what="your profile" />
      {me.data ? (
        <p>
          Signed in as <strong>{me.data.email}</strong>
          {me.data.name && me.data.name !== me.data.email ? <> ({me.data.name})</> : null}.
        </p>
      ) : null}
      <MyInvitations />
      <section aria-labelledby="everywhere-h">
        <h2 id="everywhere-h">Sign out everywhere</h2>
        <p>{EVERYWHERE} Use it when a device was lost or someone else may know your password.</p>
        <button type="button" class="danger" onClick={askEverywhere}>
          <Icon name="signOutEverywhere" /> Sign out everywhere
        </button>
      </section>
      <section aria-labelledby="password-h">
        <h2 id="password-h">Password</h2>
        <p>
          To choose a new password, ask for a link on <a href="/forgot-password">Forgot password?</a>; setting it ends every session of yours, as signing out
          everywhere does.
        </p>
      </section>
      {everywhereDialog}
    </main>
  );
}

/**
 * After a password reset (the reset's last page links /console/?after=password-reset): the
 * reset already ended every session open before it; the prompt says so and offers to end
 * any opened since, once, until dismissed.
 */
export function AfterResetPrompt() {
  const [shown, setShown] = useState(afterReset());
  const [askEverywhere, everywhereDialog] = useSignOutEverywhere();
  if (!shown) return everywhereDialog;
  const dismiss = () => {
    forgetAfterReset();
    setShown(false);
  };
  return (
    <>
      <section class="banner prompt" aria-labelledby="after-reset-h">
        <Icon name="signOutEverywhere" />
        <div>
          <h2 id="after-reset-h">Your password was changed</h2>
          <p>
            Setting it ended every session that was open before: other browsers, the command-line tool and applications signed in as you must sign in again. If
            a device you do not know signed in since, sign out everywhere to end its session too.
          </p>
        </div>
        <span class="prompt-actions">
          <button type="button" class="danger small" onClick={askEverywhere}>
            Sign out everywhere
          </button>
          <IconButton icon="close" label="Dismiss the password notice" onClick={dismiss} />
        </span>
      </section>
      {everywhereDialog}
    </>
  );
}

/** The signed-out screen's explanation of why the console is signed out, when it knows. */
export function SignedOutWhy(props: { reason: SignedOutReason }) {
  if (props.reason === 'everywhere') {
    return (
      <div class="notice-box" role="status">
        <h2>Signed out everywhere</h2>
        <p>{EVERYWHERE_DONE} Sign in again to go on.</p>
      </div>
    );
  }
  if (props.reason === 'ended') {
    return (
      <div class="notice-box" role="status">
        <h2>Your session has ended</h2>
        <p>The service no longer accepts this console's session: your password was changed, you signed out everywhere, or the session expired. Sign in again to go on.</p>
      </div>
    );
  }
  if (afterReset()) {
    return (
      <div class="notice-box" role="status">
        <h2>Your password was changed</h2>
        <p>Every session that was open before has ended. Sign in with your new password.</p>
      </div>
    );
  }
  return null;
}
