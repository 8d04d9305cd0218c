// Connect export jobs of a work zone (docs/connect.md): start one (API 1
// …/workzones/{w}/connect/export: every scan of the zone's subtree), follow its state
// (GET /connect/{slug}) and download its files through their signed URLs.
import { useEffect, useState } from 'preact/hooks';
import { A1, api } from '../api.ts';
import { Action, Empty, ErrorBox, deniedUnless, useAction } from '../ui.tsx';

interface JobHandle {
  url: string;
  slug: string;
}
interface Job {
  slug: string;
  kind: string;
  state: string;
  createdAt: string;
  files: { id: string; name: string; size: number; url: string }[];
}

/** States after which a job no longer changes by itself (an export is ready at once). */
const SETTLED = new Set(['ready', 'received', 'failed']);

function JobView(props: { handle: JobHandle }) {
  const [job, setJob] = useState<Job | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    let timer = 0;
    const poll = () =>
      api<Job>('GET', `/connect/${encodeURIComponent(props.handle.slug)}`).then(
        (j) => {
          if (!live) return;
          setJob(j);
          if (!SETTLED.has(j.state)) timer = window.setTimeout(poll, 2000);
        },
        (e: unknown) => live && setError(e),
      );
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [props.handle.slug]);
  return (
    <li class="job" aria-label={`Export job ${props.handle.slug}`}>
      <p>
        Export <code>{props.handle.slug}</code>: <strong class="job-state">{job?.state ?? 'starting'}</strong>
      </p>
      <ErrorBox error={error} />
      {job && job.files.length === 0 ? <Empty>No scan in this zone to export.</Empty> : null}
      {job?.files.length ? (
        <ul>
          {job.files.map((f) => (
            <li key={f.id}>
              <a href={f.url} download={f.name} rel="noopener">
                {f.name}
              </a>{' '}
              <span class="muted">({f.size} bytes)</span>
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

export function ConnectPanel(props: { accountId: string; projectId: string; zoneId: string; perms: ReadonlySet<string> | undefined }) {
  const [jobs, setJobs] = useState<JobHandle[]>([]);
  const [run, busy, error] = useAction();
  const denied = deniedUnless(props.perms, 'workzone:export-jobs-reality-data:write') ?? deniedUnless(props.perms, 'workzone:reality-data:read');
  const start = () =>
    run(async () => {
      const handle = await api<JobHandle>('POST', `${A1}/accounts/${props.accountId}/projects/${props.projectId}/workzones/${props.zoneId}/connect/export`, {});
      setJobs((j) => [handle, ...j]);
    });
  return (
    <div>
      <p>An export job gathers every scan of this zone and the zones below it, with download links.</p>
      <Action label="Start an export" kind="primary" denied={denied} busy={busy} onClick={() => void start()} />
      <ErrorBox error={error} />
      <ul class="list" aria-label="Export jobs">
        {jobs.map((h) => (
          <JobView key={h.slug} handle={h} />
        ))}
      </ul>
    </div>
  );
}
