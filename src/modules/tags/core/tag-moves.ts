// Moving tags between lists (vendor bulkMoveTags; docs/tags.md): one transaction under the
// subscription's tag lock; the move is planned by planTagMove (tag-change-plan.ts, pure),
// then written: each source keeps a tombstone, the target gets the tag (same id) as a new one.
import { tagListChanged } from './events.ts';
import { invalidInput, notFound } from '../../../core/errors.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import { refUuid } from '../../../core/ids/refs.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { TagListRecord, TagsRepos } from './ports.ts';
import { requirePermission, type Actor } from '../../../core/permissions/authorizer.ts';
import type { ProjectAccess, ProjectsRepos } from '../../projects/index.ts';
import type { TagTexts } from './tag-texts.ts';
import { TAGS_WRITE, listIn, lockForChange, lockSubscription } from './tag-list-locks.ts';
import { planTagMove, type TagMoveSource } from './tag-change-plan.ts';
import type { TagsView } from './tag-list-reads.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { AccountsRepos } from '../../accounts/index.ts';

export interface TagMoveItem {
  sourceRef: EntityRef;
  tagRefs: EntityRef[];
  metadataIdMapping?: { sourceId: string; targetId: string }[] | null;
}

export interface TagMoves {
  /**
   * Moves tags from source lists into the target: each source keeps a tombstone, the target
   * gets the tag (same id) as a new one with its metadata ids mapped. Answers every source,
   * then the target, with the moved tags' rows.
   */
  moveTags(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, targetRef: EntityRef, items: TagMoveItem[]): Promise<TagsView[]>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const TAG_MOVES_STORE = storeUseOf<Repos & ProjectsRepos & AccountsRepos & TagsRepos>()({ reads: [], writes: ['events', 'locks', 'projects', 'subscriptions', 'tags'] });

export function createTagMoves(deps: {
  store: SliceOf<typeof TAG_MOVES_STORE, Repos & ProjectsRepos & AccountsRepos & TagsRepos>;
  clock: Clock;
  access: Pick<ProjectAccess, 'project'>;
  tagTexts: Pick<TagTexts, 'shapesOf'>;
}): TagMoves {
  const { clock, access, tagTexts } = deps;
  const store = sliceOf(deps.store, TAG_MOVES_STORE);
  return {
    async moveTags(actor, accountRef, projectRef, targetRef, items) {
      const scope = await access.project(actor, accountRef, projectRef);
      return store.transaction(async (repos) => {
        await lockSubscription(repos, scope);
        const targetFound = await listIn(repos, scope, targetRef);
        requirePermission(scope.workzone(targetFound.workzoneId), TAGS_WRITE, 'update-tag-list-forbidden');
        const named: { list: TagListRecord; ids: string[]; mapping: Map<string, string> }[] = [];
        for (const it of items) {
          const s = await listIn(repos, scope, it.sourceRef);
          requirePermission(scope.workzone(s.workzoneId), TAGS_WRITE, 'update-tag-list-forbidden');
          if (s.id === targetFound.id) throw invalidInput('A source tag list is the target', { field: 'sourceTagListId' });
          if (named.some((x) => x.list.id === s.id)) throw invalidInput('A source tag list is named twice', { field: 'sourceTagListId' });
          const tagIds = it.tagRefs.map((r) => refUuid(r) ?? (() => { throw notFound('tag', refValue(r)); })());
          named.push({ list: s, ids: [...new Set(tagIds)], mapping: new Map((it.metadataIdMapping ?? []).map((m) => [m.sourceId, m.targetId])) });
        }
        // Row locks in id order, so two moves between the same lists cannot deadlock.
        const locked = new Map<string, TagListRecord>();
        for (const id of [targetFound.id, ...named.map((s) => s.list.id)].sort()) locked.set(id, await lockForChange(repos, scope, id));
        const target = locked.get(targetFound.id)!;
        const sources: TagMoveSource[] = [];
        for (const s of named) {
          const list = locked.get(s.list.id)!;
          sources.push({ list, ids: s.ids, mapping: s.mapping, stored: await repos.tags.tagsByIds(list.id, s.ids) });
        }
        const plan = planTagMove(target, sources, await repos.tags.tagsByIds(target.id, sources.flatMap((s) => s.ids)));
        const now = clock.now();
        const out: TagsView[] = [];
        for (const s of plan.sources) {
          if (s.ids.length) {
            await repos.tags.deleteTags(s.list.id, s.ids, s.version, actor.userId, now);
            await repos.tags.touchList(s.list.id, { version: s.version, tagCount: s.tagCount, pending: false, by: actor.userId, now });
            await repos.events.publish(tagListChanged(scope.project, s.list.id, { tagsVersion: s.version, tagCount: s.tagCount, pending: false }), now);
            await repos.tags.storeTagText(s.list.id, tagTexts.shapesOf(s.list), { version: s.version });
          }
          out.push({ list: (await repos.tags.listById(s.list.id))!, rows: await repos.tags.tagsByIds(s.list.id, s.ids) });
        }
        const movedIds = plan.moved.map((m) => m.id);
        if (plan.moved.length) {
          await repos.tags.purgeTombstones(target.id, movedIds);
          await repos.tags.insertTags(target.id, plan.moved, plan.target.version, actor.userId, now, tagTexts.shapesOf(target));
          await repos.tags.touchList(target.id, { version: plan.target.version, tagCount: plan.target.tagCount, pending: false, by: actor.userId, now });
          await repos.events.publish(tagListChanged(scope.project, target.id, { tagsVersion: plan.target.version, tagCount: plan.target.tagCount, pending: false }), now);
        }
        out.push({ list: (await repos.tags.listById(target.id))!, rows: await repos.tags.tagsByIds(target.id, movedIds) });
        return out;
      });
    },
  };
}
