// A share link opened without an account (docs/share-links.md "Opening a link"): the link's
// facts, its password when it has one, then a read-only view of the shared zones: their files,
// and as the link allows, annotations, measurements and tag lists. The link session's token
// lives in this page's memory only; every read is checked by the service against the link.
import { useEffect, useState } from 'preact/hooks';
import { ErrorBox, Loading } from '../ui.tsx';
import { shareCall as call } from './shared-api.ts';
import { SharedScene, type SharedSceneProps } from './shared-scene.tsx';
import { isPointCloud } from './point-cloud-state.tsx';

interface Facts {
  id: string;
  name: string;
  passwordProtected: boolean;
  membershipRequired: boolean;
  expiresAt: string | null;
  shareOptions: { workzones: boolean; notes: boolean; issues: boolean; measurements: boolean; crops: boolean; tags: boolean };
}
interface Shared {
  zones: { id: string; name: string }[];
  files: { id: string; name: string; extension: string; category: string; size: number; workzoneId: string }[];
  annotations: SharedSceneProps['annotations'];
  measurements: (NonNullable<SharedSceneProps['measurements']>[number] & { name: string })[] | null;
  tagLists: { id: string; name: string; tags: unknown[] }[] | null;
}

async function readShared(base: string, token: string, f: Facts): Promise<Shared> {
  const scope = await call<{ workzones: Shared['zones'] }>('GET', `${base}/scope`, token);
  const files = await call<Shared['files']>('GET', `${base}/files`, token);
  const o = f.shareOptions;
  return {
    zones: scope.workzones,
    files,
    annotations: o.notes || o.issues ? await call<NonNullable<Shared['annotations']>>('GET', `${base}/annotations`, token) : null,
    measurements: o.measurements ? await call<NonNullable<Shared['measurements']>>('GET', `${base}/measurements`, token) : null,
    tagLists: o.tags ? await call<NonNullable<Shared['tagLists']>>('GET', `${base}/tag-lists`, token) : null,
  };
}

const at = (p: { x: number; y: number; z: number } | null) => (p ? `${p.x}, ${p.y}, ${p.z}` : 'no position');

export function SharedScreen(props: { linkId: string }) {
  const base = `/share/${encodeURIComponent(props.linkId)}`;
  const [facts, setFacts] = useState<Facts | null>(null);
  const [shared, setShared] = useState<Shared | null>(null);
  const [token, setToken] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  const open = async (f: Facts, pw: string | null) => {
    setBusy(true);
    setError(null);
    try {
      const s = await call<{ token: string }>('POST', `${base}/sessions`, null, pw === null ? {} : { password: pw });
      setShared(await readShared(base, s.token, f));
      setToken(s.token);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    call<Facts>('GET', `${base}/info`, null).then((f) => {
      setFacts(f);
      if (!f.passwordProtected && !f.membershipRequired) void open(f, null);
    }, setError);
  }, [base]);

  return (
    <main id="main" class="page shared-view">
      <h1>{facts ? facts.name : 'Shared work zone'}</h1>
      <p class="muted">Shared with you read-only{facts?.expiresAt ? `, until ${new Date(facts.expiresAt).toLocaleString()}` : ''}.</p>
      <ErrorBox error={error} />
      {!facts && !error ? <Loading what="the shared link" /> : null}
      {facts && facts.membershipRequired && !shared ? <p role="alert">This link is for signed-in users of this service: open it from the console after signing in.</p> : null}
      {facts && facts.passwordProtected && !facts.membershipRequired && !shared ? (
        <form
          aria-label="Share link password"
          onSubmit={(e) => {
            e.preventDefault();
            void open(facts, password);
          }}
        >
          <label>
            Password
            <input type="password" value={password} autoComplete="off" onInput={(e) => setPassword((e.target as HTMLInputElement).value)} required />
          </label>
          <button type="submit" aria-busy={busy ? 'true' : undefined}>
            Open
          </button>
        </form>
      ) : null}
      {shared && token ? <SharedContent shared={shared} base={base} token={token} /> : facts && busy ? <Loading what="the shared zone" /> : null}
    </main>
  );
}

function SharedContent(props: { shared: Shared; base: string; token: string }) {
  const s = props.shared;
  const scans = s.files.filter((f) => f.category === 'scan' && isPointCloud(f));
  const [shown, setShown] = useState<Shared['files'][number] | null>(null);
  return (
    <>
      {shown ? (
        <section aria-labelledby="shared-3d-h" class="shared-scene">
          <h2 id="shared-3d-h">{shown.name} in 3D</h2>
          <SharedScene base={props.base} token={props.token} file={shown} annotations={s.annotations} measurements={s.measurements} />
        </section>
      ) : null}
      <section aria-labelledby="shared-zones-h">
        <h2 id="shared-zones-h">Work zones</h2>
        <ul aria-label="Shared work zones">{s.zones.map((z) => <li key={z.id}>{z.name}</li>)}</ul>
      </section>
      <section aria-labelledby="shared-files-h">
        <h2 id="shared-files-h">Files</h2>
        {s.files.length ? (
          <ul aria-label="Shared files">
            {s.files.map((f) => (
              <li key={f.id}>
                {f.name} ({f.category})
                {scans.includes(f) ? (
                  <button type="button" class="link" aria-pressed={shown?.id === f.id ? 'true' : 'false'} onClick={() => setShown(f)}>
                    View {f.name} in 3D
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        ) : <p>No file in the shared zones.</p>}
      </section>
      {s.annotations ? (
        <section aria-labelledby="shared-annotations-h">
          <h2 id="shared-annotations-h">Annotations</h2>
          {s.annotations.length ? (
            <ul aria-label="Shared annotations">
              {s.annotations.map((a) => <li key={a.id}>#{a.number} {a.title} ({a.annotationType} at {at(a.position)})</li>)}
            </ul>
          ) : <p>No annotation.</p>}
        </section>
      ) : null}
      {s.measurements ? (
        <section aria-labelledby="shared-measurements-h">
          <h2 id="shared-measurements-h">Measurements</h2>
          {s.measurements.length ? (
            <ul aria-label="Shared measurements">
              {s.measurements.map((m) => <li key={m.id}>{m.name} ({m.kind}, {m.points.length} points)</li>)}
            </ul>
          ) : <p>No measurement.</p>}
        </section>
      ) : null}
      {s.tagLists ? (
        <section aria-labelledby="shared-tags-h">
          <h2 id="shared-tags-h">Tag lists</h2>
          {s.tagLists.length ? (
            <ul aria-label="Shared tag lists">{s.tagLists.map((l) => <li key={l.id}>{l.name} ({l.tags.length} tags)</li>)}</ul>
          ) : <p>No tag list.</p>}
        </section>
      ) : null}
    </>
  );
}
