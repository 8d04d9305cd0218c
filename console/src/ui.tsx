// The console's design system (docs/console.md "Design system"): Pico CSS styles the
// semantic elements (tokens in styles.css), Lucide gives the icons (ui/icons.tsx), and these
// components give every screen the same pieces: breadcrumbs, loading or error (never both,
// an error always with Try again), empty states, actions the caller cannot do (disabled,
// with the reason), icon buttons with accessible names, dialogs and toasts (ui/).
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError, NetworkError, api } from './api.ts';
import { apiPath } from './paths.ts';
import { onLinkClick } from './router.ts';
import { Icon, type IconName } from './ui/icons.tsx';
import type { Account } from './types.ts';

export { Icon, type IconName } from './ui/icons.tsx';
export { Dialog, RenameDialog, useConfirm } from './ui/dialog.tsx';
export { toast, Toasts } from './ui/toast.tsx';

export function Link(props: { href: string; children: ComponentChildren; class?: string; 'aria-label'?: string }) {
  return (
    <a href={props.href} class={props.class} aria-label={props['aria-label']} onClick={onLinkClick}>
      {props.children}
    </a>
  );
}

/** The names of the accounts seen so far (breadcrumbs name the account on every screen). */
const accountNames = new Map<string, Promise<string>>();
export function useAccountName(accountId: string): string | null {
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    if (!accountId) return;
    let live = true;
    let p = accountNames.get(accountId);
    if (!p) {
      p = api<Account>('GET', apiPath`/api/2/accounts/${accountId}`).then((a) => a.name);
      accountNames.set(accountId, p);
      p.catch(() => accountNames.delete(accountId));
    }
    p.then((n) => live && setName(n), () => undefined);
    return () => {
      live = false;
    };
  }, [accountId]);
  return name;
}

export interface Crumb {
  label: string;
  href?: string;
}

/** Accounts › {account} › … › the current page (the last crumb, not a link). */
export function Breadcrumbs(props: { accountId?: string; trail: Crumb[] }) {
  const account = useAccountName(props.accountId ?? '');
  const crumbs: Crumb[] = [{ label: 'Accounts', href: '/console/' }];
  if (props.accountId) crumbs.push({ label: account ?? 'Account', href: `/console/a/${props.accountId}` });
  crumbs.push(...props.trail);
  return (
    <nav aria-label="Breadcrumb" class="crumbs">
      <ol>
        {crumbs.map((c, i) => (
          <li key={i}>
            {i === crumbs.length - 1 || !c.href ? <span aria-current={i === crumbs.length - 1 ? 'page' : undefined}>{c.label}</span> : <Link href={c.href}>{c.label}</Link>}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** An account screen's frame: breadcrumb (Accounts › account › title) and heading. */
export function AccountPage(props: { accountId: string; title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <main id="main" class="page">
      <Breadcrumbs accountId={props.accountId} trail={[{ label: props.title }]} />
      <div class="page-head">
        <h1>{props.title}</h1>
        {props.actions}
      </div>
      {props.children}
    </main>
  );
}

const EXPLAINED: Record<string, string> = {
  'not-member-of-project': 'You are not a member of this project: ask a project manager to add you.',
};

/** An error where it happened: the problem's detail, its code and required permissions; with Try again when given. */
export function ErrorBox(props: { error: unknown; onRetry?: () => void }) {
  const e = props.error;
  if (!e) return null;
  const api = e instanceof ApiError ? e : null;
  const offline = e instanceof NetworkError;
  return (
    <div class="error" role="alert">
      <p>
        <Icon name={offline ? 'offline' : 'alert'} />{' '}
        <strong>{api ? `Error ${api.status}${api.code ? ` (${api.code})` : ''}: ` : offline ? '' : 'Error: '}</strong>
        {e instanceof Error ? e.message : String(e)}
      </p>
      {api?.code && EXPLAINED[api.code] ? <p class="explain">{EXPLAINED[api.code]}</p> : null}
      {api && api.requiredPermissions.length ? (
        <p class="required">
          Requires: {api.requiredPermissions.map((p) => <code key={p}>{p}</code>)}
        </p>
      ) : null}
      {props.onRetry ? (
        <button type="button" class="secondary small" onClick={props.onRetry}>
          <Icon name="retry" /> Try again
        </button>
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
  <p class="loading" role="status" aria-live="polite" aria-busy="true">
    Loading {props.what}…
  </p>
);

/**
 * What some loads show while they are not all there: the first error (with Try again,
 * which loads again each failed one), otherwise a spinner while one has no data yet,
 * otherwise nothing. Never an error and a spinner at once.
 */
export function LoadState(props: { of: Loaded<unknown>[]; what: string }) {
  const failed = props.of.filter((l) => l.error && !l.loading);
  if (failed.length) return <ErrorBox error={failed[0]!.error} onRetry={() => failed.forEach((l) => l.reload())} />;
  if (props.of.some((l) => l.loading && l.data === undefined)) return <Loading what={props.what} />;
  return null;
}

export const Empty = (props: { children: ComponentChildren; icon?: IconName }) => (
  <div class="empty">
    <Icon name={props.icon ?? 'info'} size={22} />
    <p>{props.children}</p>
  </div>
);

/** A button that is disabled with its reason shown (and read out) when `denied` is set. */
export function Action(props: {
  label: string;
  onClick?: () => void;
  denied?: string | null;
  type?: 'button' | 'submit';
  kind?: 'primary' | 'danger' | 'plain';
  busy?: boolean;
  icon?: IconName;
}) {
  const id = `why-${props.label.replace(/\W+/g, '-').toLowerCase()}`;
  const cls = props.kind === 'primary' ? 'primary' : props.kind === 'danger' ? 'danger' : 'secondary';
  return (
    <span class="action">
      <button
        type={props.type ?? 'button'}
        class={cls}
        disabled={Boolean(props.denied) || props.busy}
        aria-busy={props.busy ? 'true' : undefined}
        aria-describedby={props.denied ? id : undefined}
        onClick={props.onClick}
      >
        {props.icon ? <Icon name={props.icon} /> : null}
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
 * An icon-only button; `label` is its accessible name and its tooltip. With `denied` it is
 * disabled, and the reason is its description (read out, and in the tooltip).
 */
export function IconButton(props: { icon: IconName; label: string; onClick?: () => void; disabled?: boolean; denied?: string | null; danger?: boolean; pressed?: boolean }) {
  const why = props.denied ? `why-${props.label.replace(/\W+/g, '-').toLowerCase()}` : undefined;
  return (
    <>
      <button
        type="button"
        class={props.danger ? 'icon-button danger' : 'icon-button'}
        aria-label={props.label}
        title={props.denied ? `${props.label}: ${props.denied}` : props.label}
        aria-pressed={props.pressed === undefined ? undefined : props.pressed}
        aria-describedby={why}
        disabled={props.disabled || Boolean(props.denied)}
        onClick={props.onClick}
      >
        <Icon name={props.icon} />
      </button>
      {why ? (
        <span class="visually-hidden" id={why}>
          {props.denied}
        </span>
      ) : null}
    </>
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

/** Loads `load()` when `key` changes; `reload` loads again (an error is cleared while it does). */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [n, setN] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ data: s.data, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => live && setState((s) => ({ data: s.data, error, loading: false })),
    );
    return () => {
      live = false;
    };
  }, [key, n]);
  const reload = useCallback(() => setN((x) => x + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** Runs a write; answers [run, busy, error, clear]. */
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


/**
 * Copies `text` to the clipboard and says so beside the button; when the browser refuses
 * (no permission, not a secure context) it says why and to copy the text by hand.
 */
export function CopyButton(props: { text: string; what: string }) {
  const [result, setResult] = useState<{ ok: true } | { ok: false; why: string } | null>(null);
  const copy = () => {
    if (!navigator.clipboard) {
      setResult({ ok: false, why: 'this browser offers no clipboard here' });
      return;
    }
    navigator.clipboard.writeText(props.text).then(
      () => setResult({ ok: true }),
      (e: unknown) => setResult({ ok: false, why: e instanceof Error ? e.message : String(e) }),
    );
  };
  return (
    <span class="copy">
      <button type="button" class="secondary small" onClick={copy}>
        <Icon name="copy" /> Copy {props.what}
      </button>
      <span role="status" class={result && !result.ok ? 'error-text' : 'muted'}>
        {result === null ? '' : result.ok ? 'Copied' : `Not copied (${result.why}): select it and copy it by hand.`}
      </span>
    </span>
  );
}
