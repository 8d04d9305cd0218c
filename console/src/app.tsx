// The console's shell: the session (restored from the service on load: a reload keeps it),
// the top bar (sandbox banner, theme, the account menu, sign out), the banner when the
// service cannot be reached, the account's notices and the prompt after a password reset
// (banners in the page's flow), the toasts, and the routes (paths.ts checks every id of the
// address first).
import { useEffect, useRef, useState } from 'preact/hooks';
import { lazy, Suspense } from 'preact/compat';
import { completeSignIn, onAuthChange, restoreSession, sessionState, signedOutReason, signIn, signOut } from './auth.ts';
import { noteAfterReset } from './me.ts';
import { navigate, useLocation } from './router.ts';
import { routeOf } from './paths.ts';
import { probeNow, useReachable } from './connection.ts';
import { effectiveTheme, setThemeChoice, themeChoice, onThemeChange, type ThemeChoice } from './theme.ts';
import { ErrorBox, Icon, IconButton, Link, Loading, Toasts } from './ui.tsx';
import { AccountsScreen, ProjectsScreen } from './screens/projects.tsx';
import { UsersScreen } from './screens/users.tsx';
import { ReportsScreen } from './screens/reports.tsx';
import { RolesScreen } from './screens/roles.tsx';
import { GroupsScreen } from './screens/groups.tsx';
import { SsoScreen } from './screens/sso.tsx';
import { IntegrationsScreen } from './screens/integrations.tsx';
import { AccountMenu, AfterResetPrompt, MeScreen, SignedOutWhy } from './screens/me.tsx';
import { AccountNotices } from './screens/notices.tsx';
import { OperatorScreen } from './screens/operator.tsx';
import { SharedScreen } from './screens/shared.tsx';

// The screens around the 3D view hold three.js: their own chunks (three.js shared), fetched when first opened.
const ProjectScreen = lazy(() => import('./screens/project.tsx').then((m) => ({ default: m.ProjectScreen })));
const TagListScreen = lazy(() => import('./screens/tag-list.tsx').then((m) => ({ default: m.TagListScreen })));

function useSession() {
  const [state, setState] = useState({ session: sessionState(), reason: signedOutReason() });
  useEffect(() => onAuthChange(() => setState({ session: sessionState(), reason: signedOutReason() })), []);
  return state;
}

/** Sandbox mode: the service marks the page it serves (src/http/console.ts), no API call needed. */
const SANDBOX = document.querySelector('meta[name="scanbase-sandbox"]')?.getAttribute('content') === 'on';

function Callback() {
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    completeSignIn(location.search).then((to) => navigate(to, true), setError);
  }, []);
  return error ? (
    <main id="main" class="page narrow">
      <h1>Sign-in failed</h1>
      <ErrorBox error={error} />
      <button type="button" onClick={() => void signIn('/console/')}>
        Sign in again
      </button>
    </main>
  ) : (
    <main id="main" class="page narrow">
      <Loading what="your session" />
    </main>
  );
}

function SignedOut(props: { path: string; reason: ReturnType<typeof signedOutReason> }) {
  return (
    <main id="main" class="page narrow signed-out">
      <h1>Scanbase console</h1>
      <SignedOutWhy reason={props.reason} />
      <p>Your projects' scans, tags and files in one 3D view; members, roles and reports of your accounts.</p>
      <button type="button" onClick={() => void signIn(props.path + location.search)}>
        Sign in
      </button>
      <p class="muted">Your company signs in with single sign-on? Press Sign in, type your work e-mail and choose Use single sign-on.</p>
    </main>
  );
}

function Routes(props: { path: string; query: URLSearchParams }) {
  const r = routeOf(props.path, props.query);
  switch (r.screen) {
    case 'accounts':
      return <AccountsScreen />;
    case 'me':
      return <MeScreen />;
    case 'projects':
      return <ProjectsScreen accountId={r.account} />;
    case 'users':
      return <UsersScreen accountId={r.account} />;
    case 'reports':
      return <ReportsScreen accountId={r.account} />;
    case 'roles':
      return <RolesScreen accountId={r.account} />;
    case 'groups':
      return <GroupsScreen accountId={r.account} />;
    case 'sso':
      return <SsoScreen accountId={r.account} />;
    case 'integrations':
      return <IntegrationsScreen accountId={r.account} />;
    case 'project':
      return (
        <Suspense fallback={<Loading what="the project" />}>
          <ProjectScreen key={`${r.account}/${r.project}`} accountId={r.account} projectId={r.project} zoneId={r.zone} tab={r.tab} />
        </Suspense>
      );
    case 'tag-list':
      return (
        <Suspense fallback={<Loading what="the tag list" />}>
          <TagListScreen accountId={r.account} projectId={r.project} tagListId={r.tagList} tagId={r.tag} />
        </Suspense>
      );
    case 'invalid':
      return (
        <main id="main" class="page narrow">
          <h1>Not a valid address</h1>
          <p role="alert">
            The {r.part} in this address is not a valid id, so nothing was asked of the service. <Link href="/console/">Go to your accounts</Link>.
          </p>
        </main>
      );
    default:
      return (
        <main id="main" class="page narrow">
          <h1>Not found</h1>
          <p>
            No screen at this address. <Link href="/console/">Go to your accounts</Link>.
          </p>
        </main>
      );
  }
}

const NEXT_THEME: Record<ThemeChoice, ThemeChoice> = { auto: 'light', light: 'dark', dark: 'auto' };

function ThemeButton() {
  const [choice, setChoice] = useState(themeChoice());
  const [, tick] = useState(0);
  useEffect(() => onThemeChange(() => tick((n) => n + 1)), []);
  const label = choice === 'auto' ? `Theme: as the system (${effectiveTheme()})` : `Theme: ${choice}`;
  return (
    <IconButton
      icon={choice === 'auto' ? 'auto' : choice}
      label={label}
      onClick={() => {
        const next = NEXT_THEME[choice];
        setThemeChoice(next);
        setChoice(next);
      }}
    />
  );
}

function Unreachable() {
  const reachable = useReachable();
  const [trying, setTrying] = useState(false);
  if (reachable) return null;
  return (
    <div class="banner offline" role="alert">
      <Icon name="offline" /> The service cannot be reached. The console keeps trying; what you see may be out of date.
      <button
        type="button"
        class="secondary small"
        aria-busy={trying ? 'true' : undefined}
        onClick={() => {
          setTrying(true);
          void probeNow().finally(() => setTrying(false));
        }}
      >
        Try now
      </button>
    </div>
  );
}

export function App() {
  const { path, query } = useLocation();
  const { session, reason } = useSession();
  const [signOutError, setSignOutError] = useState<unknown>(null);
  const onCallback = path === '/console/callback';
  // The operator page needs no account session: the operator token is its key.
  const onOperator = routeOf(path, query).screen === 'operator';
  // A share link's view needs no account session either: the link (and its password) is its key.
  const sharedRoute = routeOf(path, query);
  const onShared = sharedRoute.screen === 'shared';
  useEffect(() => {
    // From the password reset's last page: remembered for the prompt, then the plain address.
    const plain = noteAfterReset(path, query);
    if (plain) navigate(plain, true);
  }, []);
  // The account session is restored once, when first on a screen that uses it: the operator
  // page does not (its own refresh would be a 401 in the journal it shows at every load).
  const restored = useRef(false);
  useEffect(() => {
    if (onCallback || onOperator || onShared || restored.current) return;
    restored.current = true;
    void restoreSession();
  }, [onOperator, onShared]);
  const route = routeOf(path, query);
  const accountId = 'account' in route ? route.account : null;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      {SANDBOX ? (
        <div class="banner sandbox" role="note">
          Sandbox: this service is for trying things out; its data may be reset at any time.
        </div>
      ) : null}
      <Unreachable />
      <header class="top">
        <Link href="/console/" class="brand">
          <Icon name="layers" /> Scanbase
        </Link>
        <span class="top-tools">
          <ThemeButton />
          {session === 'signed-in' ? <AccountMenu /> : null}
          {session === 'signed-in' ? (
            <button
              type="button"
              class="secondary small"
              onClick={() =>
                signOut().then(
                  () => navigate('/console/'),
                  (e: unknown) => setSignOutError(e),
                )
              }
            >
              <Icon name="signOut" /> Sign out
            </button>
          ) : null}
        </span>
      </header>
      <ErrorBox error={signOutError} />
      {session === 'signed-in' && !onCallback ? <AfterResetPrompt /> : null}
      {session === 'signed-in' && accountId ? <AccountNotices key={accountId} accountId={accountId} compact={route.screen === 'project' || route.screen === 'tag-list'} /> : null}
      {sharedRoute.screen === 'shared' ? (
        <SharedScreen key={sharedRoute.link} linkId={sharedRoute.link} />
      ) : onOperator ? (
        <OperatorScreen />
      ) : onCallback ? (
        <Callback />
      ) : session === 'signed-in' ? (
        <Routes path={path} query={query} />
      ) : session === 'restoring' ? (
        <main id="main" class="page narrow">
          <Loading what="your session" />
        </main>
      ) : (
        <SignedOut path={path} reason={reason} />
      )}
      <Toasts />
    </>
  );
}
