// The console's shell: sign-in state, the header (sandbox banner, account, sign out), and
// the routes (docs/console.md lists them).
import { useEffect, useState } from 'preact/hooks';
import { lazy, Suspense } from 'preact/compat';
import { CALLBACK_PATH, completeSignIn, currentTokens, onAuthChange, signIn, signOut } from './auth.ts';
import { match, navigate, useLocation } from './router.ts';
import { ErrorBox, Link, Loading } from './ui.tsx';
import { AccountsScreen, ProjectsScreen } from './screens/projects.tsx';
import { ProjectScreen } from './screens/project.tsx';
import { UsersScreen } from './screens/users.tsx';
import { ReportsScreen } from './screens/reports.tsx';
import { RolesScreen } from './screens/roles.tsx';
import { GroupsScreen } from './screens/groups.tsx';

// The tag list screen holds three.js: its own chunk, fetched when first opened.
const TagListScreen = lazy(() => import('./screens/tag-list.tsx').then((m) => ({ default: m.TagListScreen })));

function useSignedIn(): boolean {
  const [signedIn, setSignedIn] = useState(Boolean(currentTokens()));
  useEffect(() => onAuthChange(() => setSignedIn(Boolean(currentTokens()))), []);
  return signedIn;
}

/** Sandbox mode: the service marks the page it serves (src/http/console.ts), no API call needed. */
const SANDBOX = document.querySelector('meta[name="scanbase-sandbox"]')?.getAttribute('content') === 'on';

function Callback() {
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    completeSignIn(location.search).then((to) => navigate(to, true), setError);
  }, []);
  return error ? (
    <main id="main">
      <h1>Sign-in failed</h1>
      <ErrorBox error={error} />
      <button type="button" class="primary" onClick={() => void signIn('/console/')}>
        Sign in again
      </button>
    </main>
  ) : (
    <Loading what="your session" />
  );
}

function SignedOut(props: { path: string }) {
  return (
    <main id="main" class="signed-out">
      <h1>Scanbase console</h1>
      <p>Browse and manage accounts, projects, work zones, members and files; see tags in 3D.</p>
      <button type="button" class="primary" onClick={() => void signIn(props.path + location.search)}>
        Sign in
      </button>
    </main>
  );
}

function Routes(props: { path: string; query: URLSearchParams }) {
  const { path, query } = props;
  let m: Record<string, string> | null;
  if ((m = match('/console', path)) || path === '/console/') return <AccountsScreen />;
  if ((m = match('/console/a/:account', path))) return <ProjectsScreen accountId={m.account!} />;
  if ((m = match('/console/a/:account/users', path))) return <UsersScreen accountId={m.account!} />;
  if ((m = match('/console/a/:account/reports', path))) return <ReportsScreen accountId={m.account!} />;
  if ((m = match('/console/a/:account/roles', path))) return <RolesScreen accountId={m.account!} />;
  if ((m = match('/console/a/:account/groups', path))) return <GroupsScreen accountId={m.account!} />;
  if ((m = match('/console/a/:account/p/:project', path))) {
    return <ProjectScreen accountId={m.account!} projectId={m.project!} zoneId={query.get('zone')} tab={query.get('tab') ?? 'files'} />;
  }
  if ((m = match('/console/a/:account/p/:project/t/:tagList', path))) {
    return (
      <Suspense fallback={<Loading what="the 3D view" />}>
        <TagListScreen accountId={m.account!} projectId={m.project!} tagListId={m.tagList!} />
      </Suspense>
    );
  }
  return (
    <main id="main">
      <h1>Not found</h1>
      <p>
        No screen at this address. <Link href="/console/">Go to your accounts</Link>.
      </p>
    </main>
  );
}

export function App() {
  const { path, query } = useLocation();
  const signedIn = useSignedIn();
  const [signOutError, setSignOutError] = useState<unknown>(null);
  const onCallback = path === CALLBACK_PATH;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      {SANDBOX ? (
        <div class="sandbox" role="note">
          Sandbox: this service is for trying things out; its data may be reset at any time.
        </div>
      ) : null}
      <header class="top">
        <Link href="/console/" class="brand">
          Scanbase
        </Link>
        {signedIn ? (
          <button
            type="button"
            class="plain"
            onClick={() =>
              signOut().then(
                () => navigate('/console/'),
                (e: unknown) => setSignOutError(e),
              )
            }
          >
            Sign out
          </button>
        ) : null}
      </header>
      <ErrorBox error={signOutError} />
      {onCallback ? <Callback /> : signedIn ? <Routes path={path} query={query} /> : <SignedOut path={path} />}
    </>
  );
}
