// The vendor's integrations in the console (docs/console.md "Integrations"; the API is
// docs/integrations.md): the Integrations screen of an account (the signed-in user's own
// Autodesk connection, and the account's Konekt hubs for its owner and administrators), a
// project's Konekt and Autodesk configurations, and each annotation's links (request one,
// follow it while the service creates it at the third party, open it or read why it failed).
// What the caller may not do is shown disabled with the permission it needs; the service stays
// the judge of every write.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, uuidOf } from '../api.ts';
import { apiPath, type ApiPath } from '../paths.ts';
import type { AccountIntegrations, Annotation, AnnotationLink, AutodeskConnection, KonektHub, ProjectIntegrations } from '../types.ts';
import { AccountPage, Action, Empty, ErrorBox, Head, LoadState, deniedUnless, toast, useAction, useLoad } from '../ui.tsx';
import { administers } from './sso.tsx';
import type { Account } from '../types.ts';

type LinkType = AnnotationLink['type'];
const NAMES: Record<LinkType, string> = { NEWFORMA_KONEKT: 'Konekt', AUTODESK: 'Autodesk', PROCORE: 'Procore' };
/** The types this service can create (it has no Procore integration). */
const OFFERED: LinkType[] = ['NEWFORMA_KONEKT', 'AUTODESK'];
/** What a link needs beyond the permission, said when a request initialised nothing. */
const PREREQUISITE: Record<LinkType, string> = {
  NEWFORMA_KONEKT: 'the project must be configured with a Konekt hub that is connected on the account',
  AUTODESK: 'the project must be configured with an Autodesk project, and the annotation\'s author connected to Autodesk',
  PROCORE: 'this service has no Procore integration',
};

/** An address the console opens from a link: http(s) only (anything else is not a link to follow). */
export const followable = (url: string | null): string | null => {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
};

/** Whether some annotation has a link the service is still creating (its list is then read again). */
export const hasPendingLink = (annotations: readonly Annotation[] | undefined): boolean =>
  Boolean(annotations?.some((a) => a.integrations.some((l) => l.status === 'pending')));

/** Reads the annotations again every 3 s while a link is pending. */
export function useFollowPendingLinks(annotations: readonly Annotation[] | undefined, reload: () => void): void {
  const pending = hasPendingLink(annotations);
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(reload, 3000);
    return () => clearTimeout(timer);
  }, [pending, annotations]);
}

/** One annotation's links, and the buttons that request the missing ones. */
export function AnnotationLinks(props: { base: ApiPath; annotation: Annotation; projectPerms: readonly string[] | undefined; onChanged: () => void }) {
  const { annotation } = props;
  const [run, busy, error] = useAction();
  const denied = deniedUnless(props.projectPerms, 'project:annotations:create-integration-link');
  const live = new Set(annotation.integrations.filter((l) => l.status !== 'failed').map((l) => l.type));
  const request = (type: LinkType) =>
    void run(async () => {
      const answer = await api<{ created: Record<string, string[]> }>('POST', apiPath`${props.base}/annotations/bulk-create-integration`, {
        annotations: [annotation.id], integrationTypes: [type],
      });
      if (!Object.values(answer.created).some((types) => types.includes(type))) {
        throw new Error(`No ${NAMES[type]} link was created for ${annotation.title}: ${PREREQUISITE[type]}.`);
      }
      toast(`The ${NAMES[type]} link of ${annotation.title} is being created.`);
      props.onChanged();
    });
  return (
    <div class="annotation-links">
      {annotation.integrations.length ? (
        <ul aria-label={`Links of ${annotation.title}`}>
          {annotation.integrations.map((l) => {
            const href = followable(l.url);
            return (
              <li key={l.type} data-status={l.status}>
                {NAMES[l.type]}:{' '}
                {l.status === 'created' && href ? (
                  <a href={href} target="_blank" rel="noopener noreferrer">
                    Open in {NAMES[l.type]}
                  </a>
                ) : l.status === 'pending' ? (
                  <span class="muted">being created{l.failure ? ` (the last attempt: ${l.failure})` : ''}…</span>
                ) : (
                  <span class="error-text">failed: {l.failure ?? 'no reason given'}</span>
                )}
              </li>
            );
          })}
        </ul>
      ) : null}
      {props.projectPerms && denied ? null : (
        <div class="row compact">
          {OFFERED.filter((type) => !live.has(type)).map((type) => (
            <Action key={type} label={`Link ${annotation.title} to ${NAMES[type]}`} onClick={() => request(type)} denied={denied} busy={busy} />
          ))}
        </div>
      )}
      <ErrorBox error={error} />
    </div>
  );
}

/** A project's Konekt and Autodesk configurations (`project:integrations:read|write`). */
export function ProjectIntegrationsSection(props: { base: ApiPath; projectPerms: readonly string[] | undefined }) {
  const readDenied = deniedUnless(props.projectPerms, 'project:integrations:read');
  const writeDenied = deniedUnless(props.projectPerms, 'project:integrations:write');
  const config = useLoad(
    () => (readDenied ? Promise.resolve(null) : api<ProjectIntegrations>('GET', apiPath`${props.base}/integrations`)),
    `${props.base} integrations ${readDenied ?? ''}`,
  );
  const connection = useLoad(myAutodeskConnection, 'my autodesk connection');
  const [hubId, setHubId] = useState('');
  const [konektProject, setKonektProject] = useState('');
  const [autodesk, setAutodesk] = useState('');
  const [run, busy, error] = useAction();
  if (readDenied && props.projectPerms) return <p class="muted">{readDenied} to see the project's integrations.</p>;
  const c = config.data;
  const setKonekt = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const id = konektProject.trim() === 'new' ? null : Number(konektProject);
      if (!hubId.trim()) throw new Error('The Konekt hub\'s id is needed.');
      if (id !== null && !Number.isInteger(id)) throw new Error('The Konekt project is its number, or "new" to create one on the hub.');
      await api(c?.konekt ? 'PUT' : 'POST', apiPath`${props.base}/integrations/konekt`, { hubId: hubId.trim(), konektProjectId: id, options: { allowInviteUsers: false } });
      config.reload();
    });
  };
  const setAutodeskProject = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const [autodeskHubId, autodeskProjectId] = autodesk.split('|');
      if (!autodeskHubId || !autodeskProjectId) throw new Error('Choose an Autodesk project.');
      await api(c?.autodesk ? 'PUT' : 'POST', apiPath`${props.base}/integrations/autodesk`, { autodeskHubId, autodeskProjectId });
      config.reload();
    });
  };
  const remove = (which: 'konekt' | 'autodesk') =>
    void run(() => api('DELETE', apiPath`${props.base}/integrations/${which}`)).then((ok) => ok && config.reload());
  const projects = (connection.data?.hubs ?? []).flatMap((h) => h.projects.map((p) => ({ value: `${h.autodeskId}|${p.autodeskId}`, label: `${h.name} / ${p.name}` })));
  return (
    <details class="project-integrations">
      <summary>Third-party integrations of the project</summary>
      <LoadState of={[config]} what="the project's integrations" />
      <dl>
        <dt>Konekt</dt>
        <dd>
          {c?.konekt ? (
            <>
              hub {c.konekt.hubId}, project {c.konekt.konektId}{' '}
              {writeDenied ? null : <button type="button" class="danger" disabled={busy} onClick={() => remove('konekt')}>Remove the Konekt configuration</button>}
            </>
          ) : (
            'not configured'
          )}
        </dd>
        <dt>Autodesk</dt>
        <dd>
          {c?.autodesk ? (
            <>
              {c.autodesk.autodeskHubId} / {c.autodesk.autodeskProjectId}{' '}
              {writeDenied ? null : <button type="button" class="danger" disabled={busy} onClick={() => remove('autodesk')}>Remove the Autodesk configuration</button>}
            </>
          ) : (
            'not configured'
          )}
        </dd>
      </dl>
      {writeDenied ? null : (
        <>
          <form class="grid-form" onSubmit={setKonekt} aria-label="Konekt configuration">
            <label for="konekt-hub">Konekt hub id</label>
            <input id="konekt-hub" value={hubId} onInput={(e) => setHubId(e.currentTarget.value)} />
            <label for="konekt-project">Konekt project (number, or "new")</label>
            <input id="konekt-project" value={konektProject} onInput={(e) => setKonektProject(e.currentTarget.value)} />
            <Action label="Configure Konekt" type="submit" busy={busy} />
          </form>
          <form class="grid-form" onSubmit={setAutodeskProject} aria-label="Autodesk configuration">
            <label for="autodesk-project">Autodesk project</label>
            <select id="autodesk-project" value={autodesk} disabled={!projects.length} onChange={(e) => setAutodesk(e.currentTarget.value)}>
              <option value="">{projects.length ? 'Choose…' : 'Connect to Autodesk first (the account\'s Integrations page)'}</option>
              {projects.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </select>
            <Action label="Configure Autodesk" type="submit" busy={busy} />
          </form>
        </>
      )}
      <ErrorBox error={error} />
    </details>
  );
}

/** The caller's Autodesk connection, or null without one (the service's 404). */
function myAutodeskConnection(): Promise<AutodeskConnection | null> {
  return api<AutodeskConnection>('GET', '/api/2/integrations/autodesk/connection').catch((e: unknown) => {
    if (e instanceof ApiError && e.code === 'autodesk-connection-not-found') return null;
    throw e;
  });
}

/** What Autodesk's sign-in brought back to this page (`?error=…`), in words. */
const SIGN_IN_ERRORS: Record<string, string> = {
  access_denied: 'The Autodesk sign-in was refused or cancelled: nothing was connected.',
  temporarily_unavailable: 'Autodesk did not answer: nothing was connected. Try again later.',
};

function AutodeskSection(props: { accountId: string }) {
  const connection = useLoad(myAutodeskConnection, 'my autodesk connection');
  const [run, busy, error] = useAction();
  const back = new URLSearchParams(location.search).get('error');
  const connect = () =>
    void run(async () => {
      const redirectUri = `${location.origin}/console/a/${props.accountId}/integrations`;
      const { url } = await api<{ url: string }>('GET', `/api/2/integrations/autodesk/connection/url?redirectUri=${encodeURIComponent(redirectUri)}&answer=json`);
      const to = followable(url);
      if (!to) throw new Error('The service answered an Autodesk address the console will not open.');
      location.assign(to);
    });
  const disconnect = () =>
    void run(() => api('DELETE', '/api/2/integrations/autodesk/connection')).then((ok) => {
      if (!ok) return;
      toast('Your Autodesk connection was removed.');
      connection.reload();
    });
  const c = connection.data;
  return (
    <section aria-labelledby="autodesk-head">
      <h2 id="autodesk-head">Your Autodesk connection</h2>
      {back ? <p class="error-text" role="alert">{SIGN_IN_ERRORS[back] ?? `The Autodesk sign-in ended with "${back}": nothing was connected.`}</p> : null}
      <LoadState of={[connection]} what="your Autodesk connection" />
      {c ? (
        <>
          <p>
            Connected as {c.email ?? c.userName ?? 'an Autodesk user'}; {c.hubs.length} hub{c.hubs.length === 1 ? '' : 's'}:{' '}
            {c.hubs.map((h) => `${h.name} (${h.projects.length} project${h.projects.length === 1 ? '' : 's'})`).join(', ') || 'none'}.
          </p>
          <Action label="Disconnect from Autodesk" kind="danger" onClick={disconnect} busy={busy} />
        </>
      ) : connection.data === null ? (
        <>
          <p class="muted">Annotations you write are linked to Autodesk issues as you: connect once.</p>
          <Action label="Connect to Autodesk" kind="primary" onClick={connect} busy={busy} />
        </>
      ) : null}
      <ErrorBox error={error} />
    </section>
  );
}

function KonektSection(props: { accountId: string }) {
  const base = apiPath`/api/2/accounts/${props.accountId}/integrations`;
  const hubs = useLoad(() => api<AccountIntegrations>('GET', base), `${base}`);
  const [token, setToken] = useState('');
  const [tokens, setTokens] = useState<Record<string, string>>({});
  const [run, busy, error] = useAction();
  const add = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      if (!token) throw new Error('The hub\'s Konekt API token is needed.');
      await api('POST', apiPath`${base}/konekt`, { token });
      setToken('');
      hubs.reload();
    });
  };
  const act = (f: () => Promise<unknown>) => void run(f).then((ok) => ok && hubs.reload());
  const row = (h: KonektHub) => {
    const path = apiPath`${base}/konekt/${h.id}`;
    return (
      <tr key={h.id}>
        <td>{h.name}</td>
        <td>{h.konektId}</td>
        <td>{h.connected ? 'connected' : 'disconnected'}</td>
        <td>{h.linkedProjects.length}</td>
        <td class="row compact">
          {h.connected ? (
            <button type="button" disabled={busy} onClick={() => act(() => api('DELETE', apiPath`${path}/connection`))}>Disconnect {h.name}</button>
          ) : (
            <form class="row compact" onSubmit={(e) => { e.preventDefault(); act(() => api('POST', apiPath`${path}/connection`, { token: tokens[h.id] ?? '' })); }}>
              <label for={`konekt-token-${uuidOf(h.id)}`} class="visually-hidden">Token for {h.name}</label>
              <input id={`konekt-token-${uuidOf(h.id)}`} type="password" autocomplete="off" placeholder="Konekt API token" value={tokens[h.id] ?? ''}
                onInput={(e) => setTokens((t) => ({ ...t, [h.id]: e.currentTarget.value }))} />
              <Action label={`Connect ${h.name}`} type="submit" busy={busy} />
            </form>
          )}
          <button type="button" class="danger" disabled={busy} onClick={() => confirm(`Remove the Konekt hub ${h.name} from the account?`) && act(() => api('DELETE', path))}>
            Remove {h.name}
          </button>
        </td>
      </tr>
    );
  };
  return (
    <section aria-labelledby="konekt-head">
      <h2 id="konekt-head">Konekt hubs of the account</h2>
      <form class="row compact" onSubmit={add} aria-label="Add a Konekt hub">
        <label for="konekt-new-token">Konekt API token of the hub</label>
        <input id="konekt-new-token" type="password" autocomplete="off" value={token} onInput={(e) => setToken(e.currentTarget.value)} />
        <Action label="Add the hub" type="submit" kind="primary" busy={busy} />
      </form>
      <ErrorBox error={error} />
      <LoadState of={[hubs]} what="the Konekt hubs" />
      {hubs.data && !hubs.data.konekt.length ? <Empty>No Konekt hub on this account.</Empty> : null}
      {hubs.data?.konekt.length ? (
        <table>
          <Head cols={['Hub', 'Konekt id', 'State', 'Projects linked', 'Actions']} />
          <tbody>{hubs.data.konekt.map(row)}</tbody>
        </table>
      ) : null}
    </section>
  );
}

/** /console/a/{account}/integrations: the user's Autodesk connection; the account's Konekt hubs for its owner and administrators. */
export function IntegrationsScreen(props: { accountId: string }) {
  const account = useLoad(() => api<Account>('GET', apiPath`/api/2/accounts/${props.accountId}`), `account ${props.accountId}`);
  return (
    <AccountPage accountId={props.accountId} title="Integrations">
      <AutodeskSection accountId={props.accountId} />
      {administers(account.data) ? (
        <KonektSection accountId={props.accountId} />
      ) : account.data ? (
        <p class="muted">The account's Konekt hubs are managed by its owner and administrators.</p>
      ) : null}
    </AccountPage>
  );
}
