// The registered files of a project (CONTRACT §7, docs/files.md): listing, reading,
// renaming, deleting and placing (bulk transformation). Each checks the permission of the
// file's category in its work zone (file-permissions.ts).
import { projectEventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { invalidInput, notFound } from '../../../core/errors.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { FileRecord, Quaternion, Vector3, FilesRepos } from '../../../core/ports/file-repositories.ts';
import { blobKey, type ObjectStore } from '../../../core/ports/object-store.ts';
import { requirePermission, type Actor } from '../../../core/permissions/authorizer.ts';
import { type ProjectAccess, type ProjectScope, requireMember } from '../../projects/index.ts';
import { categoryOf, type Category } from './formats.ts';
import { TRANSFORM, WRITE } from './file-permissions.ts';
import { FILES, IDENTITY, PLACED, fileName } from './upload-items.ts';

export interface FileView {
  file: FileRecord;
  accountId: string;
}

export interface TransformInput {
  ref: EntityRef;
  translation?: Vector3 | null;
  rotation?: Quaternion | null;
  scale?: Vector3 | null;
}

export interface ProjectFiles {
  /** GET …/files?category=: the files of the zones the caller may read (vendor getFiles). */
  listFiles(actor: Actor, a: EntityRef, p: EntityRef, categories: Category[] | undefined): Promise<FileView[]>;
  getFile(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef): Promise<FileView>;
  /** PATCH …/files/{f}: rename (vendor updateFileName: the category's write permission). */
  renameFile(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef, name: string): Promise<FileView>;
  /** DELETE …/files/{f}: the row first (committed), then the object; never a row without its object. */
  deleteFile(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef): Promise<void>;
  /** POST …/files/bulk-transformation: all or nothing. */
  transformFiles(actor: Actor, a: EntityRef, p: EntityRef, input: TransformInput[]): Promise<FileView[]>;
}

/** A placement field of a transformation: absent keeps the current value, null resets it. */
const given = <T>(value: T | null | undefined, current: T | null, reset: T | null): T | null =>
  value === undefined ? current : value === null ? reset : value;

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const PROJECT_FILES_STORE = storeUseOf<Repos & FilesRepos>()({ reads: ['files'], writes: ['events', 'files'] });

export function createProjectFiles(deps: {
  store: SliceOf<typeof PROJECT_FILES_STORE, Repos & FilesRepos>;
  clock: Clock;
  access: Pick<ProjectAccess, 'project'>;
  objectStore: Pick<ObjectStore, 'delete'>;
}): ProjectFiles {
  const { clock, access, objectStore } = deps;
  const store = sliceOf(deps.store, PROJECT_FILES_STORE);

  async function fileIn(scope: ProjectScope, ref: EntityRef, repos: Pick<FilesRepos, 'files'> = store.repos): Promise<FileRecord> {
    const f = await repos.files.byRef(scope.project.id, ref);
    if (!f) throw notFound('file', refValue(ref));
    return f;
  }

  const view = (scope: ProjectScope, file: FileRecord): FileView => ({ file, accountId: scope.account.account.id });

  return {
    async listFiles(actor, a, p, categories) {
      const scope = await access.project(actor, a, p);
      requireMember(scope);
      if (categories && !categories.length) return [];
      const files = await store.repos.files.list(scope.project.id, categories);
      return files.filter((f) => scope.workzone(f.workzoneId).has('workzone:workzones:read')).map((f) => view(scope, f));
    },

    async getFile(actor, a, p, ref) {
      const scope = await access.project(actor, a, p);
      requireMember(scope);
      const f = await fileIn(scope, ref);
      requirePermission(scope.workzone(f.workzoneId), 'workzone:workzones:read', 'view-file-forbidden');
      return view(scope, f);
    },

    async renameFile(actor, a, p, ref, name) {
      const scope = await access.project(actor, a, p);
      const f = await fileIn(scope, ref);
      requirePermission(scope.workzone(f.workzoneId), WRITE[categoryOf(f)], 'update-file-forbidden');
      const now = clock.now();
      await store.transaction(async (repos) => {
        await repos.files.rename(f.id, fileName(name), actor.userId, now);
        await repos.events.publish(projectEventOf('file.updated', scope.project, subjectOf('file', f.id), { fileId: f.id, workzoneId: f.workzoneId, fields: ['name'] }), now);
      });
      return view(scope, await fileIn(scope, ref));
    },

    async deleteFile(actor, a, p, ref) {
      const scope = await access.project(actor, a, p);
      const f = await fileIn(scope, ref);
      requirePermission(scope.workzone(f.workzoneId), WRITE[categoryOf(f)], 'delete-file-forbidden');
      await store.transaction(async (repos) => {
        await repos.files.remove(f.id);
        await repos.events.publish(projectEventOf('file.deleted', scope.project, subjectOf('file', f.id), { fileId: f.id, workzoneId: f.workzoneId, category: f.category }), clock.now());
      });
      await objectStore.delete(blobKey(scope.project.id, f.blobName));
    },

    async transformFiles(actor, a, p, input) {
      const scope = await access.project(actor, a, p);
      if (!input.length || input.length > FILES.maxItems) throw invalidInput(`Between 1 and ${FILES.maxItems} files`);
      const now = clock.now();
      return store.transaction(async (repos) => {
        const out: FileView[] = [];
        for (const [i, t] of input.entries()) {
          const f = await fileIn(scope, t.ref, repos);
          const rule = TRANSFORM[categoryOf(f)];
          if (!rule) throw invalidInput(`Files of category ${f.category} cannot be transformed`, { field: `/${i}/id` });
          requirePermission(scope.workzone(f.workzoneId), rule.alternatives, 'update-file-forbidden');
          if (t.scale && !rule.scale) throw invalidInput(`Files of category ${f.category} cannot be scaled`, { field: `/${i}/scale` });
          if (t.rotation) {
            const q = t.rotation;
            const norm = Math.hypot(q.x, q.y, q.z, q.w);
            if (Math.abs(norm - 1) > 1e-3) throw invalidInput('rotation must be a unit quaternion', { field: `/${i}/rotation` });
          }
          const placed = PLACED.has(categoryOf(f));
          await repos.files.setTransformation(f.id, {
            translation: given(t.translation, f.translation, placed ? IDENTITY.translation : null),
            rotation: given(t.rotation, f.rotation, placed ? IDENTITY.rotation : null),
            scale: given(t.scale, f.scale, rule.scale ? { x: 1, y: 1, z: 1 } : null),
          }, actor.userId, now);
          await repos.events.publish(projectEventOf('file.updated', scope.project, subjectOf('file', f.id), { fileId: f.id, workzoneId: f.workzoneId, fields: ['transformation'] }), now);
          out.push(view(scope, await fileIn(scope, { type: 'file', uuid: f.id }, repos)));
        }
        return out;
      });
    },
  };
}
