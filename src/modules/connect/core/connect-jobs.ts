// Connect import/export jobs (API 1 "Start connect import/export", CONTRACT §6,
// docs/connect.md). A job is a handle the connect tool works with: an export job fixes
// the chosen scans when it starts and hands out signed download URLs for them; an import
// job takes the sign → PUT → register upload flow into its work zone and lists what arrived.
import { projectEventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { DomainError, invalidInput, notFound } from '../../../core/errors.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { ConnectJobRecord, ConnectKind } from './ports.ts';
import type { FileRecord, FilesRepos } from '../../../core/ports/file-repositories.ts';
import { blobKey, type ObjectStore } from '../../../core/ports/object-store.ts';
import type { Permission } from '../../../core/permissions/catalog.ts';
import { requirePermission, type Actor } from '../../../core/permissions/authorizer.ts';
import { type ProjectAccess, type ProjectScope, requireMember } from '../../projects/index.ts';
import { downloadName, FILES, UPLOADS_STORE, type Files, formatOf, mayDownload, type RegisteredFile, servedAs, type SignResult, type UploadItem } from '../../files/index.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { UsageRecorder } from '../../usage/index.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { ConnectRepos } from './ports.ts';
import './events.ts';
import type { WorkzonesRepos } from '../../workzones/index.ts';
import type { AccountsRepos } from '../../accounts/index.ts';

const IMPORT: Permission[] = ['workzone:reality-data:write', 'workzone:import-jobs-reality-data:write'];
const EXPORT: Permission[] = ['workzone:export-jobs-reality-data:write', 'workzone:reality-data:read'];
const VIEW: Record<ConnectKind, Permission[]> = {
  import: ['workzone:import-jobs-reality-data:write'],
  export: ['workzone:export-jobs-reality-data:read', 'workzone:reality-data:read'],
};

/** Slugs: 16 random bytes, base64url (22 characters). */
const SLUG_RE = /^[A-Za-z0-9_-]{22}$/;

export interface ConnectJobView {
  job: ConnectJobRecord;
  files: { file: FileRecord; url: string }[];
}


/** Connect import and export jobs (docs/connect.md). */
export interface ConnectJobs {
  /** POST …/workzones/{w}/connect/import: needs the scan upload permissions on the zone. */
  startImport(actor: Actor, a: EntityRef, p: EntityRef, w: EntityRef): Promise<{ slug: string; url: string }>;
  /**
   * POST …/workzones/{w}/connect/export: the scans named by `scanIds`, and every scan of
   * the `workzoneIds` subtrees; neither given: the scans of the path zone's subtree. The
   * caller needs the export permissions on the path zone and on every chosen scan's zone.
   */
  startExport(actor: Actor, a: EntityRef, p: EntityRef, w: EntityRef, input: { scanRefs?: EntityRef[]; workzoneRefs?: EntityRef[] }): Promise<{ slug: string; url: string }>;
  /**
   * GET /connect/{slug}: the job, its files with 3-hour download URLs, only those the
   * caller may download (their category's READ on their zone), whatever the kind: an
   * export may hold scans of zones outside the job's, which its starter could read and
   * another viewer of the job may not; an import job is viewed with
   * import-jobs-reality-data:write, which does not include reading the scans.
   */
  get(actor: Actor, slug: string): Promise<ConnectJobView>;
  /** POST /connect/{slug}/files: signs scan uploads into the import job's work zone. */
  signImport(actor: Actor, slug: string, items: UploadItem[]): Promise<SignResult>;
  /** PUT /connect/{slug}/files: registers them (as bulk-files does) and adds them to the job, in one transaction. */
  registerImport(actor: Actor, slug: string, items: (UploadItem & { blobName?: string })[]): Promise<RegisteredFile[]>;
}

/**
 * What the jobs read, and what their transactions write: an import's registration runs in
 * this module's transaction (the files' repositories it needs, and `connect`).
 */
export const CONNECT_STORE = storeUseOf<Repos & FilesRepos & AccountsRepos & WorkzonesRepos & ConnectRepos>()({
  reads: ['connect', 'files', 'workzones'],
  writes: ['connect', 'events', ...UPLOADS_STORE.writes],
});

export function createConnectJobs(deps: {
  store: SliceOf<typeof CONNECT_STORE, Repos & FilesRepos & AccountsRepos & WorkzonesRepos & ConnectRepos>;
  clock: Clock;
  ids: Ids;
  access: ProjectAccess;
  files: Files;
  objectStore: ObjectStore;
  /** An export's scan URLs count as the viewer's downloads (docs/usage.md). */
  usage: UsageRecorder;
  publicUrl: string;
}): ConnectJobs {
  const { clock, ids, access, files, objectStore, usage } = deps;
  const store = sliceOf(deps.store, CONNECT_STORE);

  async function zoneOf(scope: ProjectScope, ref: EntityRef) {
    const w = await store.repos.workzones.byRef(scope.project.id, ref);
    if (!w) throw notFound('workzone', refValue(ref));
    return w;
  }

  async function start(scope: ProjectScope, actor: Actor, kind: ConnectKind, workzoneId: string, fileIds: string[]) {
    const now = clock.now();
    const job: ConnectJobRecord = {
      id: ids.uuid(), slug: ids.secret(16), kind, state: kind === 'export' ? 'ready' : 'waiting', accountId: scope.account.account.id,
      projectId: scope.project.id, workzoneId, createdBy: actor.userId, createdAt: now, updatedAt: now,
    };
    await store.transaction(async (repos) => {
      await repos.connect.insert(job);
      await repos.connect.addFiles(job.id, fileIds);
      await repos.events.publish(projectEventOf('connect-job.created', scope.project, subjectOf('connect-job', job.id), {
        connectJobId: job.id, kind, workzoneId,
      }), now);
    });
    return { slug: job.slug, url: `${deps.publicUrl}/connect/${job.slug}` };
  }

  /** The job by slug, with the caller's scope in its project (403/404 as the project rules say). */
  async function openJob(actor: Actor, slug: string): Promise<{ job: ConnectJobRecord; scope: ProjectScope }> {
    const job = SLUG_RE.test(slug) ? await store.repos.connect.bySlug(slug) : null;
    const unknown = () => notFound('connect-job', slug.slice(0, 64));
    if (!job) throw unknown();
    // Another tenant's job answers as an unknown one (docs/security.md "Existence across tenants").
    const scope = await access.project(actor, { type: 'account', uuid: job.accountId }, { type: 'project', uuid: job.projectId }).catch((e: unknown) => {
      throw e instanceof DomainError && e.code === 'account-not-found' ? unknown() : e;
    });
    requireMember(scope); // a job shows the project's files
    requirePermission(scope.workzone(job.workzoneId), VIEW[job.kind], 'view-connect-job-forbidden');
    return { job, scope };
  }

  async function openImport(actor: Actor, slug: string) {
    const opened = await openJob(actor, slug);
    if (opened.job.kind !== 'import') throw invalidInput('Files can be uploaded through import jobs only', { field: 'slug' });
    requirePermission(opened.scope.workzone(opened.job.workzoneId), IMPORT, 'create-file-forbidden');
    return opened;
  }

  /** Connect imports laser scans: every item must have a scan format. */
  function onlyScans(items: UploadItem[]): void {
    items.forEach((item, i) => {
      if (formatOf(String(item.extension ?? '').replace(/^\./, '').toLowerCase()).category !== 'scan') {
        throw invalidInput(`A connect import takes laser scans only; .${item.extension} is not a scan format`, { field: `/${i}/extension` });
      }
    });
  }

  const refsOf = (job: ConnectJobRecord) =>
    [{ type: 'account', uuid: job.accountId }, { type: 'project', uuid: job.projectId }, { type: 'workzone', uuid: job.workzoneId }] as const;

  return {
    /** POST …/workzones/{w}/connect/import: needs the scan upload permissions on the zone. */
    async startImport(actor: Actor, a: EntityRef, p: EntityRef, w: EntityRef) {
      const scope = await access.project(actor, a, p);
      const zone = await zoneOf(scope, w);
      requirePermission(scope.workzone(zone.id), IMPORT, 'create-connect-import-forbidden');
      return start(scope, actor, 'import', zone.id, []);
    },

    /**
     * POST …/workzones/{w}/connect/export: the scans named by `scanIds`, and every scan of
     * the `workzoneIds` subtrees; neither given: the scans of the path zone's subtree. The
     * caller needs the export permissions on the path zone and on every chosen scan's zone.
     */
    async startExport(actor: Actor, a: EntityRef, p: EntityRef, w: EntityRef, input: { scanRefs?: EntityRef[]; workzoneRefs?: EntityRef[] }) {
      const scope = await access.project(actor, a, p);
      const zone = await zoneOf(scope, w);
      requirePermission(scope.workzone(zone.id), EXPORT, 'create-connect-export-forbidden');
      const chosen = new Map<string, FileRecord>();
      // The project's scans, read once (up to 10,000 scanIds are named by id).
      const scans = await store.repos.files.list(scope.project.id, ['scan']);
      const scanByRef = new Map<string, FileRecord>();
      for (const f of scans) scanByRef.set(f.id, f).set(f.api1Id, f);
      for (const [i, ref] of (input.scanRefs ?? []).entries()) {
        // A miss is asked of the store (another spelling of the id, or not a scan).
        const f = scanByRef.get(refValue(ref)) ?? (await store.repos.files.byRef(scope.project.id, ref));
        if (!f) throw notFound('file', refValue(ref));
        if (f.category !== 'scan') throw invalidInput(`${refValue(ref)} is not a scan`, { field: `/scanIds/${i}` });
        chosen.set(f.id, f);
      }
      const zoneRefs = input.workzoneRefs ?? [];
      const roots = !zoneRefs.length && !(input.scanRefs ?? []).length ? [zone.id] : [];
      for (const ref of zoneRefs) roots.push((await zoneOf(scope, ref)).id);
      if (roots.length) {
        const inZones = new Set<string>();
        for (const r of roots) for (const id of await store.repos.workzones.subtree(r)) inZones.add(id);
        for (const f of scans) if (inZones.has(f.workzoneId)) chosen.set(f.id, f);
      }
      for (const f of chosen.values()) requirePermission(scope.workzone(f.workzoneId), EXPORT, 'create-connect-export-forbidden');
      return start(scope, actor, 'export', zone.id, [...chosen.keys()]);
    },

    /**
     * GET /connect/{slug}: the job, its files with 3-hour download URLs, only those the
     * caller may download (their category's READ on their zone), whatever the kind: an
     * export may hold scans of zones outside the job's, which its starter could read and
     * another viewer of the job may not; an import job is viewed with
     * import-jobs-reality-data:write, which does not include reading the scans.
     */
    async get(actor: Actor, slug: string): Promise<ConnectJobView> {
      const { job, scope } = await openJob(actor, slug);
      const now = clock.now();
      const out: ConnectJobView['files'] = [];
      for (const file of await store.repos.connect.files(job.id)) {
        if (!mayDownload(scope.workzone(file.workzoneId), file)) continue;
        const url = await objectStore.signDownload(
          { key: blobKey(job.projectId, file.blobName), expiresInSeconds: FILES.downloadTtlSeconds, ...servedAs(file.extension, downloadName(file)) },
          now,
        );
        out.push({ file, url });
      }
      if (job.kind === 'export') {
        const scans = out.filter((f) => f.file.category === 'scan').length;
        await usage.recordDownloads([{ projectId: job.projectId, userId: actor.userId, action: 'scans-downloaded', count: scans }], now);
      }
      return { job, files: out };
    },

    /** POST /connect/{slug}/files: signs scan uploads into the import job's work zone. */
    async signImport(actor: Actor, slug: string, items: UploadItem[]): Promise<SignResult> {
      const { job } = await openImport(actor, slug);
      onlyScans(items);
      return files.signBulkFiles(actor, ...refsOf(job), items);
    },

    /** PUT /connect/{slug}/files: registers them (as bulk-files does) and adds them to the job, in one transaction. */
    async registerImport(actor: Actor, slug: string, items: (UploadItem & { blobName?: string })[]): Promise<RegisteredFile[]> {
      const { job } = await openImport(actor, slug);
      onlyScans(items);
      return files.registerBulkFiles(actor, ...refsOf(job), items, {
        store,
        async run(repos, registered) {
          await repos.connect.addFiles(job.id, registered.map((f) => f.id));
          if (job.state !== 'received') await repos.connect.setState(job.id, 'received', clock.now());
          await repos.events.publish(projectEventOf('connect-job.received', { id: job.projectId, accountId: job.accountId }, subjectOf('connect-job', job.id), {
            connectJobId: job.id, fileCount: registered.length,
          }), clock.now());
        },
      });
    },
  };
}
