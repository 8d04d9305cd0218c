// Copying a work zone (POST …/workzones/{w}/copy, 202 with a job id) into a new project or
// under a zone of this project, then following each copy started here (GET …/copy/{jobId},
// every second until done or failed) and linking to the result. The copy followed last is
// in the address (`&job={jobId}`): a reload, or the same user in another browser, follows
// it again; the service shows a copy to its requester only (404 to anyone else).
import { useEffect, useState } from 'preact/hooks';
import { api, uuidOf } from '../api.ts';
import { apiPath, type ApiPath } from '../paths.ts';
import type { CopyStatus, Project, Workzone } from '../types.ts';
import { Action, ErrorBox, Link, deniedUnlessAll, useAction } from '../ui.tsx';
import { count } from '../format.ts';
import { navigate, useLocation } from '../router.ts';

/** The vendor's rule on the source zone (docs/projects.md "Copy"); the destination's is checked by the service. */
const SOURCE_NEEDS = ['workzone:workzones:read', 'workzone:reality-data:read', 'workzone:cad-model:read'] as const;
const NEW_PROJECT = 'new';
const POLL_MS = 1000;

interface Started {
  jobId: string;
  /** The copy's name when started on this page (not known after a reload: the status has none). */
  name: string | null;
  statusUrl: string;
}

/** The address of the copy tab following `jobId`: reloadable and shareable. */
const jobAddress = (zoneId: string, jobId: string) => `${location.pathname}?${new URLSearchParams({ zone: zoneId, tab: 'copy', job: jobId })}`;

function CopyJob(props: { accountId: string; zoneId: string; job: Started; onSettled: () => void }) {
  const [status, setStatus] = useState<CopyStatus | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    let timer = 0;
    const poll = () =>
      api<CopyStatus>('GET', props.job.statusUrl).then(
        (s) => {
          if (!live) return;
          setStatus(s);
          if (s.state === 'done' || s.state === 'failed') props.onSettled();
          else timer = window.setTimeout(poll, POLL_MS);
        },
        (e: unknown) => live && setError(e),
      );
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [props.job.statusUrl]);
  const state = status?.state ?? 'queued';
  const r = status?.result;
  const name = props.job.name ?? props.job.jobId;
  return (
    <li class="job" aria-label={`Copy ${name}`}>
      <p role="status">
        Copy <strong>{name}</strong>: <strong class="copy-state">{state}</strong>{' '}
        {state === 'queued' || state === 'running' ? <progress aria-label={`Progress of the copy ${name}`} /> : null}{' '}
        <Link href={jobAddress(props.zoneId, props.job.jobId)}>Link to this copy</Link>
      </p>
      {r ? (
        <p>
          {count(r.copiedWorkzones, 'work zone')} and {count(r.copiedFiles, 'file')} copied
          {r.skippedMembers ? `; ${count(r.skippedMembers, 'member')} not copied (they hold another role there)` : ''}.{' '}
          <Link href={`/console/a/${props.accountId}/p/${uuidOf(r.projectId)}?zone=${uuidOf(r.workzoneId)}&tab=files`}>Open the copy {name}</Link>
        </p>
      ) : null}
      {status?.error ? <ErrorBox error={new Error(status.error)} /> : null}
      <ErrorBox error={error} />
    </li>
  );
}

export function CopyPanel(props: {
  accountId: string;
  project: Project;
  base: ApiPath;
  zone: Workzone;
  zones: Workzone[];
  perms: ReadonlySet<string> | undefined;
  onCopied: () => void;
}) {
  const { zone } = props;
  const [name, setName] = useState(`${zone.name} copy`);
  const [destination, setDestination] = useState(NEW_PROJECT);
  const [jobs, setJobs] = useState<Started[]>([]);
  const [run, busy, error] = useAction();
  const denied = deniedUnlessAll(props.perms, ...SOURCE_NEEDS);
  const zoneUrl = apiPath`${props.base}/workzones/${uuidOf(zone.id)}`;
  // The copy in the address (after a reload, or a link): followed like one started here.
  const fromAddress = useLocation().query.get('job');
  const shown =
    fromAddress && !jobs.some((j) => j.jobId === fromAddress)
      ? [...jobs, { jobId: fromAddress, name: null, statusUrl: String(apiPath`${zoneUrl}/copy/${fromAddress}`) }]
      : jobs;

  const start = (e: Event) => {
    e.preventDefault();
    if (!name.trim()) return;
    const body =
      destination === NEW_PROJECT
        ? { destinationName: name.trim() }
        : { destinationName: name.trim(), destinationProject: props.project.id, destinationWorkzone: destination };
    void run(async () => {
      const { jobId } = await api<{ jobId: string }>('POST', `${zoneUrl}/copy`, body);
      setJobs((j) => [{ jobId, name: name.trim(), statusUrl: String(apiPath`${zoneUrl}/copy/${jobId}`) }, ...j]);
      navigate(jobAddress(uuidOf(zone.id), jobId), true);
    });
  };
  return (
    <div>
      <p>
        A copy takes this zone, the zones below it, their members and the files you may download, into a new project (the copy is its
        root) or under a zone of this project. It runs in the background; you are also told by e-mail.
      </p>
      <form class="grid-form" onSubmit={start} aria-label="Copy the work zone">
        <label for="copy-name">Name of the copy</label>
        <input id="copy-name" value={name} maxLength={255} disabled={Boolean(denied)} onInput={(e) => setName(e.currentTarget.value)} />
        <label for="copy-destination">Copy to</label>
        <select id="copy-destination" value={destination} disabled={Boolean(denied)} onChange={(e) => setDestination(e.currentTarget.value)}>
          <option value={NEW_PROJECT}>A new project</option>
          {props.zones.map((z) => (
            <option key={z.id} value={z.id}>
              Under {z.name} (this project)
            </option>
          ))}
        </select>
        <Action label="Copy zone" type="submit" kind="primary" denied={denied} busy={busy} />
      </form>
      <ErrorBox error={error} />
      <ul class="list" aria-label="Copies">
        {shown.map((j) => (
          <CopyJob key={j.jobId} accountId={props.accountId} zoneId={uuidOf(zone.id)} job={j} onSettled={props.onCopied} />
        ))}
      </ul>
    </div>
  );
}
