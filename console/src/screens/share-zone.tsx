// The zone's Share button (docs/share-links.md): creates a share link of the zone (vendor
// createShareLink; `workzone:share-links:write` or `workzone:own-share-links:write` there) with
// an optional password, and shows the address that opens it read-only without an account.
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { apiPath, type ApiPath } from '../paths.ts';
import { Dialog, ErrorBox } from '../ui.tsx';

interface CreatedLink {
  id: string;
  link: string;
}

export function ShareZoneButton(props: { base: ApiPath; zoneId: string; zoneName: string }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(props.zoneName);
  const [password, setPassword] = useState('');
  const [created, setCreated] = useState<CreatedLink | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const create = async () => {
    setBusy(true);
    setError(null);
    try {
      setCreated(await api<CreatedLink>('POST', apiPath`${props.base}/share-links`, {
        name, workzoneId: props.zoneId, password: password || null, membershipRequired: false,
        shareOptions: { workzones: false, notes: true, issues: true, measurements: true, crops: true, tags: true },
      }));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" class="secondary small" onClick={() => { setOpen(true); setCreated(null); setName(props.zoneName); setPassword(''); }}>
        Share
      </button>
      <Dialog open={open} title={`Share ${props.zoneName}`} onClose={() => setOpen(false)}>
        {created ? (
          <label>
            Share link
            <input type="text" readOnly value={created.link} onFocus={(e) => (e.target as HTMLInputElement).select()} />
          </label>
        ) : (
          <form
            aria-label="New share link"
            onSubmit={(e) => {
              e.preventDefault();
              void create();
            }}
          >
            <label>
              Link name
              <input type="text" value={name} maxLength={255} required onInput={(e) => setName((e.target as HTMLInputElement).value)} />
            </label>
            <label>
              Password (optional)
              <input type="password" value={password} autoComplete="new-password" onInput={(e) => setPassword((e.target as HTMLInputElement).value)} />
              <small>Without a password, anyone with the link sees the zone read-only.</small>
            </label>
            <ErrorBox error={error} />
            <button type="submit" aria-busy={busy ? 'true' : undefined}>
              Create the link
            </button>
          </form>
        )}
      </Dialog>
    </>
  );
}
