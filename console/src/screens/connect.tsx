// Connect jobs of a work zone (docs/connect.md): start an export (API 1
// …/workzones/{w}/connect/export: every scan of the zone's subtree) or an import
// (…/connect/import, then upload scans into the job through /connect/{slug}/files), follow
// each job's state (GET /connect/{slug}) and list its files (an export's with download
// links). No API lists jobs, so the jobs started in this browser are remembered per zone
// (their slugs only, which grant nothing without a token) and shown as earlier jobs, and a
// job has an address (`&job={slug}`) that a reload, another browser or a colleague opens
// (the service shows a job to whoever may act on the zone's jobs: docs/connect.md).
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { apiPath } from '../paths.ts';
import { uploadFiles, type UploadProgress } from '../upload.ts';
import { Action, Empty, ErrorBox, Link, deniedUnlessAll, useAction } from '../ui.tsx';
import { UploadList } from './upload-list.tsx';
import { navigate, useLocation } from '../router.ts';

type Kind = 'import' | 'export';
interface JobHandle {
  slug: string;
  /** Unknown for a job opened from its address until the service answers. */
  kind: Kind | null;
}

/** The address of the connect tab showing the job `slug`: reloadable and shareable. */
const jobAddress = (zoneId: string, slug: string) => `${location.pathname}?${new URLSearchParams({ zone: zoneId, tab: 'connect', job: slug })}`;
interface Job {
  slug: string;
  kind: Kind;
  state: string;
  createdAt: string;
  files: { id: string; name: string; size: number; url: string }[];
}

/** States after which a job no longer changes by itself (an export is ready at once; an import is received once a file is in). */
const SETTLED = new Set(['ready', 'received', 'failed']);
const POLL_MS = 2000;
/** The most jobs remembered per zone. */
const REMEMBERED = 20;

const EXPORT_NEEDS = ['workzone:export-jobs-reality-data:write', 'workzone:reality-data:read'];
const IMPORT_NEEDS = ['workzone:reality-data:write', 'workzone:import-jobs-reality-data:write'];

const storageKey = (zoneId: string) => `scanbase.connect-jobs.${zoneId}`;

function remembered(zoneId: string): JobHandle[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(storageKey(zoneId)) ?? '[]');
    return Array.isArray(v) ? v.filter((j): j is JobHandle => typeof j?.slug === 'string' && (j.kind === 'import' || j.kind === 'export')) : [];
  } catch (e) {
    // A value another version wrote, or storage turned off: start with no earlier job.
    console.warn('connect jobs: the remembered list could not be read', e);
    return [];
  }
}

function remember(zoneId: string, jobs: JobHandle[]): void {
  try {
    localStorage.setItem(storageKey(zoneId), JSON.stringify(jobs.slice(0, REMEMBERED)));
  } catch (e) {
    console.warn('connect jobs: the list could not be remembered', e);
  }
}

function ImportUpload(props: { slug: string; onUploaded: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [uploads, setUploads] = useState<UploadProgress[]>([]);
  const controllers = useRef<AbortController[]>([]);
  const start = async (files: File[]) => {
    if (!files.length) return;
    controllers.current = files.map(() => new AbortController());
    await uploadFiles(String(apiPath`/connect/${props.slug}/files`), files, setUploads, controllers.current, 'PUT');
    props.onUploaded();
  };
  return (
    <div class="row">
      <input
        ref={input}
        id={`import-${props.slug}`}
        type="file"
        multiple
        class="visually-hidden"
        aria-label={`Scans to import into ${props.slug}`}
        tabIndex={-1}
        onChange={(e) => void start([...(e.currentTarget.files ?? [])])}
      />
      <Action label={`Upload scans into ${props.slug}`} onClick={() => input.current?.click()} />
      <UploadList uploads={uploads} controllers={controllers.current} />
    </div>
  );
}

function JobView(props: { handle: JobHandle; zoneId: string }) {
  const { slug } = props.handle;
  const [job, setJob] = useState<Job | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [round, again] = useState(0);
  useEffect(() => {
    let live = true;
    let timer = 0;
    const poll = () =>
      api<Job>('GET', apiPath`/connect/${slug}`).then(
        (j) => {
          if (!live) return;
          setJob(j);
          // An import waits for its files: it is asked again after each upload, not polled.
          if (!SETTLED.has(j.state) && j.kind === 'export') timer = window.setTimeout(poll, POLL_MS);
        },
        (e: unknown) => live && setError(e),
      );
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [slug, round]);
  const kind = job?.kind ?? props.handle.kind;
  const name = kind === 'import' ? 'Import' : kind === 'export' ? 'Export' : 'Connect';
  return (
    <li class="job" aria-label={`${name} job ${slug}`}>
      <p>
        {name} <code>{slug}</code>: <strong class="job-state">{job?.state ?? 'starting'}</strong>
        {job ? <span class="muted"> (started {new Date(job.createdAt).toLocaleString()})</span> : null}{' '}
        <Link href={jobAddress(props.zoneId, slug)}>Link to this job</Link>
      </p>
      <ErrorBox error={error} />
      {kind === 'import' && job ? <ImportUpload slug={slug} onUploaded={() => again((n) => n + 1)} /> : null}
      {job && job.files.length === 0 ? <Empty>{kind === 'export' ? 'No scan in this zone to export.' : 'No scan imported yet.'}</Empty> : null}
      {job?.files.length ? (
        <ul aria-label={`Files of ${slug}`}>
          {job.files.map((f) => (
            <li key={f.id}>
              {f.url ? (
                <a href={f.url} download={f.name} rel="noopener">
                  {f.name}
                </a>
              ) : (
                f.name
              )}{' '}
              <span class="muted">({f.size} bytes)</span>
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

export function ConnectPanel(props: { accountId: string; projectId: string; zoneId: string; perms: ReadonlySet<string> | undefined }) {
  const [jobs, setJobs] = useState<JobHandle[]>(() => remembered(props.zoneId));
  const [run, busy, error] = useAction();
  useEffect(() => setJobs(remembered(props.zoneId)), [props.zoneId]);
  // The job in the address (a reload, another browser, a shared link), first when not remembered here.
  const fromAddress = useLocation().query.get('job');
  const shown = fromAddress && !jobs.some((j) => j.slug === fromAddress) ? [{ slug: fromAddress, kind: null }, ...jobs] : jobs;
  const start = (kind: Kind) =>
    run(async () => {
      const { slug } = await api<{ url: string; slug: string }>(
        'POST',
        apiPath`/api/accounts/${props.accountId}/projects/${props.projectId}/workzones/${props.zoneId}/connect/${kind}`,
        {},
      );
      const next = [{ slug, kind }, ...jobs];
      remember(props.zoneId, next);
      setJobs(next);
      navigate(jobAddress(props.zoneId, slug), true);
    });
  return (
    <div>
      <p>
        An export job gathers every scan of this zone and the zones below it, with download links. An import job takes scans you upload
        into this zone.
      </p>
      <Action label="Start an export" kind="primary" denied={deniedUnlessAll(props.perms, ...EXPORT_NEEDS)} busy={busy} onClick={() => void start('export')} />
      <Action label="Start an import" kind="primary" denied={deniedUnlessAll(props.perms, ...IMPORT_NEEDS)} busy={busy} onClick={() => void start('import')} />
      <ErrorBox error={error} />
      {shown.length ? <h3>Jobs started from this browser or opened from their address</h3> : null}
      <ul class="list" aria-label="Connect jobs">
        {shown.map((h) => (
          <JobView key={h.slug} handle={h} zoneId={props.zoneId} />
        ))}
      </ul>
    </div>
  );
}
