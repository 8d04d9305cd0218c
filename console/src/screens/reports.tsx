// API 1 reports of an account (docs/projects.md): projects by last access
// (account:projects:list) and users by last activity (account:users:read), each
// downloadable as CSV.
import { api } from '../api.ts';
import { apiPath } from '../paths.ts';
import { toCsv, type Cell } from '../csv.ts';
import { AccountPage, Empty, Head, useLoad, LoadState } from '../ui.tsx';

interface ProjectRow {
  projectId: string;
  projectName: string;
  planId: string;
  lastAccessedDate: string | null;
}
interface UserRow {
  userId: string;
  userEmail: string;
  userFirstname: string;
  userLastname: string;
  userCompanyName: string;
  lastActivityDate: string | null;
}

function download(name: string, header: readonly string[], rows: readonly (readonly Cell[])[]): void {
  const url = URL.createObjectURL(new Blob([toCsv(header, rows)], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function Report<T>(props: { title: string; file: string; url: string; cols: string[]; cells: (r: T) => Cell[] }) {
  const rows = useLoad(() => api<T[]>('GET', props.url), props.url);
  const id = props.file.replace(/\W/g, '-');
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{props.title}</h2>
      <LoadState of={[rows]} what={props.title.toLowerCase()} />
      {rows.data?.length === 0 ? <Empty>Nothing to report.</Empty> : null}
      {rows.data?.length ? (
        <>
          <button type="button" class="plain" onClick={() => download(props.file, props.cols, rows.data!.map(props.cells))}>
            Export {props.title} as CSV
          </button>
          <table>
            <Head cols={props.cols} />
            <tbody>
              {rows.data.map((r, i) => (
                <tr key={i}>
                  {props.cells(r).map((c, j) => (
                    <td key={j}>{c ?? '—'}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  );
}

export function ReportsScreen(props: { accountId: string }) {
  const base = String(apiPath`/api/accounts/${props.accountId}/reports`);
  return (
    <AccountPage accountId={props.accountId} title="Reports">
      <Report<ProjectRow>
        title="Projects last accessed"
        file="projects-last-accessed.csv"
        url={`${base}/projects-last-accessed`}
        cols={['Project', 'Project id', 'Subscription id', 'Last accessed']}
        cells={(r) => [r.projectName, r.projectId, r.planId, r.lastAccessedDate]}
      />
      <Report<UserRow>
        title="Users last activity"
        file="users-last-activity.csv"
        url={`${base}/users-last-activity`}
        cols={['E-mail', 'First name', 'Last name', 'Company', 'User id', 'Last activity']}
        cells={(r) => [r.userEmail, r.userFirstname, r.userLastname, r.userCompanyName, r.userId, r.lastActivityDate]}
      />
    </AccountPage>
  );
}
