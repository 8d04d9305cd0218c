// The detection job (CONTRACT §8): runs the TagDetector port for a pending list, adds what
// it found as AI tags (one version; as many as the list limit and the subscription's tag
// capacity leave room for), and clears `pending`; a detection that fails for good
// clears `pending` too, so the list never stays locked.
import { tagListChanged } from './events.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { JobRecord } from '../../../core/ports/job-handler.ts';
import type { TagDetector } from './tag-detector.ts';
import type { TagTexts } from './tag-texts.ts';
import type { JobHandler } from '../../jobs/index.ts';
import { normaliseTagData, MAX_TAGS_PER_LIST, type TagData } from './tag-data.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { TagsRepos } from './ports.ts';

interface DetectPayload {
  tagListId: string;
  projectId: string;
  /** Absent from jobs queued before job.finished events existed. */
  accountId?: string;
  classes: string[];
  fileIds: string[];
  userId: string | null;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const DETECTION_JOB_STORE = storeUseOf<Repos & TagsRepos>()({ reads: [], writes: ['events', 'locks', 'tags'] });

export function createDetectionJob(deps: { store: SliceOf<typeof DETECTION_JOB_STORE, Repos & TagsRepos>; clock: Clock; ids: Ids; detector: TagDetector; tagTexts: TagTexts }): JobHandler {
  const { clock, ids, detector } = deps;
  const store = sliceOf(deps.store, DETECTION_JOB_STORE);

  async function finish(p: DetectPayload, found: TagData[]) {
    await store.transaction(async (repos) => {
      // The same lock order as every tag write: the subscription's counter, then the list.
      const sub = await repos.tags.subscriptionOfList(p.tagListId);
      if (!sub) return; // deleted meanwhile
      await repos.locks.exclusive([`subscription-tags:${sub.id}`]);
      const list = await repos.tags.lockList(p.tagListId);
      if (!list) return;
      const free = sub.tagCapacity - (await repos.tags.countForSubscription(sub.id));
      const room = Math.max(0, Math.min(MAX_TAGS_PER_LIST - list.tagCount, free));
      const defined = new Set(list.metadataDefinitions.map((d) => d.id));
      const tags = [];
      for (const [i, data] of found.entries()) {
        if (tags.length >= room) break;
        try {
          const id = ids.uuid();
          const d = normaliseTagData({ ...data, nature: 'AI' }, { index: i }, defined);
          tags.push({ id, data: JSON.stringify(d.id === undefined ? { ...d, id } : d) });
        } catch {
          // a detection the service cannot store is skipped, not fatal
        }
      }
      const now = clock.now();
      const version = tags.length ? list.tagsVersion + 1 : list.tagsVersion;
      await repos.tags.insertTags(list.id, tags, version, p.userId, now, deps.tagTexts.shapesOf(list));
      await repos.tags.touchList(list.id, { version, tagCount: list.tagCount + tags.length, pending: false, by: null, now });
      await repos.events.publish(tagListChanged({ id: list.projectId, accountId: sub.accountId }, list.id, { tagsVersion: version, tagCount: list.tagCount + tags.length, pending: false }), now);
    });
  }

  return {
    async run(job: JobRecord) {
      const p = job.payload as unknown as DetectPayload;
      const found = (await detector.detect({ tagListId: p.tagListId, projectId: p.projectId, classes: p.classes, fileIds: p.fileIds })) as TagData[];
      await finish(p, found);
      return { detected: found.length };
    },
    accountOf: (job) => (job.payload as unknown as DetectPayload).accountId ?? null,
    async failed(job) {
      await finish(job.payload as unknown as DetectPayload, []);
    },
  };
}
