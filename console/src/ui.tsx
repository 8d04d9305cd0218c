// Shared pieces of every screen: loading and empty states, errors (the problem's detail,
// and for a 403 the permissions it requires), actions the caller cannot do (disabled,
// with the reason), and a data hook.
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from './api.ts';
import { onLinkClick } from './router.ts';

export function Link(props: { href: string; children: ComponentChildren; class?: string }) {
  return (
    <a href={props.href} class={props.class} onClick={onLinkClick}>
      {props.children}
    </a>
  );
}

/** An account screen's frame: breadcrumb (Accounts / Projects / title) and heading. */
export function AccountPage(props: { accountId: string; title: string; children: ComponentChildren }) {
  return (
    <main id="main">
      <nav aria-label="Breadcrumb" class="crumbs">
        <Link href="/console/">Accounts</Link> / <Link href={`/console/a/${props.accountId}`}>Projects</Link> /{' '}
        <span aria-current="page">{props.title}</span>
      </nav>
      <h1>{props.title}</h1>
      {props.children}
    </main>
  );
}

const EXPLAINED: Record<string, string> = {
  'not-member-of-project': 'You are not a member of this project: ask a project manager to add you.',
};

export function ErrorBox(props: { error: unknown }) {
  const e = props.error;
  if (!e) return null;
  const api = e instanceof ApiError ? e : null;
  return (
    <div class="error" role="alert">
      <p>
        <strong>{api ? `Error ${api.status}${api.code ? ` (${api.code})` : ''}: ` : 'Error: '}</strong>
        {e instanceof Error ? e.message : String(e)}
      </p>
      {api?.code && EXPLAINED[api.code] ? <p class="explain">{EXPLAINED[api.code]}</p> : null}
      {api && api.requiredPermissions.length ? (
        <p class="required">
          Requires: {api.requiredPermissions.map((p) => <code key={p}>{p}</code>)}
        </p>
      ) : null}
    </div>
  );
}

/** A table's header row: one column header per name. */
export const Head = (props: { cols: readonly string[] }) => (
  <thead>
    <tr>
      {props.cols.map((c) => (
        <th key={c} scope="col">
          {c}
        </th>
      ))}
    </tr>
  </thead>
);

export const Loading = (props: { what: string }) => (
  <p class="loading" role="status" aria-live="polite">
    Loading {props.what}…
  </p>
);

export const Empty = (props: { children: ComponentChildren }) => <p class="empty">{props.children}</p>;

/** A button that is disabled with its reason shown (and read out) when `denied` is set. */
export function Action(props: {
  label: string;
  onClick?: () => void;
  denied?: string | null;
  type?: 'button' | 'submit';
  kind?: 'primary' | 'danger' | 'plain';
  busy?: boolean;
}) {
  const id = `why-${props.label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <span class="action">
      <button
        type={props.type ?? 'button'}
        class={props.kind ?? 'plain'}
        disabled={Boolean(props.denied) || props.busy}
        aria-describedby={props.denied ? id : undefined}
        onClick={props.onClick}
      >
        {props.label}
      </button>
      {props.denied ? (
        <small class="why" id={id}>
          {props.denied}
        </small>
      ) : null}
    </span>
  );
}

/**
 * Why a write is refused, or null: the permission it needs when the caller lacks it
 * (`granted` undefined: still loading). A set holding '*' holds everything (the project's owner).
 */
export function deniedUnless(granted: ReadonlySet<string> | readonly string[] | undefined, ...anyOf: string[]): string | null {
  if (!granted) return 'Checking your permissions…';
  const has = (p: string) => (Array.isArray(granted) ? granted.includes(p) : (granted as ReadonlySet<string>).has('*') || (granted as ReadonlySet<string>).has(p));
  return anyOf.some(has) ? null : `Needs ${anyOf.join(' or ')}`;
}

/** Why a write is refused when it needs every one of `allOf` (see deniedUnless): the ones the caller lacks. */
export function deniedUnlessAll(granted: ReadonlySet<string> | readonly string[] | undefined, ...allOf: string[]): string | null {
  if (!granted) return 'Checking your permissions…';
  const lacking = allOf.filter((p) => deniedUnless(granted, p) !== null);
  return lacking.length ? `Needs ${lacking.join(' and ')}` : null;
}

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Loads `load()` when `key` changes; `reload` loads again. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [n, setN] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ data: s.data, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => live && setState({ error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [key, n]);
  const reload = useCallback(() => setN((x) => x + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** Runs a write; answers [run, busy, error]. */
export function useAction(): [(f: () => Promise<unknown>) => Promise<boolean>, boolean, unknown, () => void] {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (f: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await f();
      return true;
    } catch (e) {
      setError(e);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return [run, busy, error, () => setError(null)];
}
