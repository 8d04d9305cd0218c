// The tags issue's measurements, per engine (PGlite; PostgreSQL when BENCH_DATABASE_URL or
// TEST_DATABASE_URL is set), each on a fresh server:
//  - the rate of bulk creates of 10,000 tags (POST …/tags/bulk, five of them: 50,000 tags);
//  - the time of GET …/tags of that 50,000-tag list, as a ratio to JSON.stringify of the
//    same tags (the parsed answer) in this process, in the same run (target ≤ 2): the median
//    of repeated reads, the first read of a list on the server (nothing kept yet: the median
//    of COLD_LISTS lists' first reads, each list filled the same way; one sample swings with
//    the machine's load), and the first read after each of five small changes (only the
//    changes are read and patched in);
//  - the server's peak RSS (VmHWM of its process), taken before the further lists are filled.
import { median, processMemory } from './measure.ts';
import { startServer, unavailable, BENCH_USER, type ScanbaseServer } from './servers.ts';

export const TAG_LIST_SIZE = 50_000;
export const BULK_SIZE = 10_000;
const GET_RUNS = 7;
/** Lists whose first read is measured (the first one is also read repeatedly and changed). */
export const COLD_LISTS = 3;

export interface TagBenchResult {
  engine: string;
  skipped?: string;
  error?: string;
  bulkCreateTagsPerSecond?: number;
  bulkCreateMs?: number[];
  /** Median of the reads after the first (this version's text is then cached per node). */
  getMs?: number;
  /** The first read of a list on this server (the whole list read from the store): the median of COLD_LISTS lists. */
  coldGetMs?: number;
  /** Each list's first read, in order. */
  coldGetSamplesMs?: number[];
  coldRatio?: number;
  /** The first read after a small change (100 updates, 10 creations, 10 deletions): only the changes are read. */
  afterChangeGetMs?: number;
  afterChangeRatio?: number;
  stringifyMs?: number;
  ratio?: number;
  target: number;
  responseBytes?: number;
  peakRssMb?: number;
  /** RSS of the idle server before any tag work (PGlite reserves most of its heap at start). */
  startRssMb?: number;
  /** Peak RSS once the bulk creates are done, before any read. */
  peakRssAfterCreatesMb?: number;
}

/** A memory figure of the server in MB (VmRSS: now; VmHWM: its peak). */
function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  const bytes = processMemory(pid, field);
  return bytes === null ? undefined : Math.round(bytes / 1024 / 1024);
}

/** A tag like a scanner's: an oriented box (its boundingBox computed by the server), a class, two metadata values. */
const tagData = (i: number) => ({
  id: `T-${i}`,
  name: `Tag ${i}`,
  class: 'valve',
  orientedBoundingBox: [i % 500, Math.floor(i / 500), 1.5, 0, 0, Math.SQRT1_2, Math.SQRT1_2, 0.4, 0.6, 0.8],
  nature: 'manual',
  metadata: [{ id: 'floor', value: String(i % 7) }, { id: 'system', value: 'HVAC' }],
  customFields: [{ name: 'Inspected', value: i % 2 ? 'yes' : 'no' }],
});

async function call(server: ScanbaseServer, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

async function measure(server: ScanbaseServer, engine: string): Promise<TagBenchResult> {
  const out: TagBenchResult = { engine, target: 2, startRssMb: memoryMb(server.pid, 'VmRSS') };
  // Only project managers create projects: make the bench user one.
  const account = server.seeded.accounts[0]!;
  await server.operator('POST', '/seed', { accounts: [{ name: account.name, owner: BENCH_USER.email, projectManagers: [BENCH_USER.email] }] });
  const token = await server.accessTokenFor(BENCH_USER.email);
  const A = `/api/2/accounts/${account.id}`;
  const subs = JSON.parse((await call(server, token, 'GET', `${A}/subscriptions`)).text) as { id: string }[];
  const p = await call(server, token, 'POST', `${A}/projects`, { name: 'Tag bench', subscriptionId: subs[0]!.id });
  if (p.status !== 201) throw new Error(`create project: ${p.status} ${p.text}`);
  const project = JSON.parse(p.text) as { id: string; rootWorkzoneId: string };
  const L = `${A}/projects/${project.id}/tag-lists`;
  const newList = async (name: string) => {
    const l = await call(server, token, 'POST', L, {
      workzoneId: project.rootWorkzoneId, tagListType: '3d', name,
      metadataDefinition: [{ id: 'floor', name: 'Floor' }, { id: 'system', name: 'System' }],
    });
    if (l.status !== 201) throw new Error(`create tag list: ${l.status} ${l.text}`);
    const list = JSON.parse(l.text) as { id: string };
    const ms: number[] = [];
    for (let k = 0; k < TAG_LIST_SIZE / BULK_SIZE; k++) {
      const body = { create: Array.from({ length: BULK_SIZE }, (_, i) => ({ data: tagData(k * BULK_SIZE + i) })) };
      const t0 = performance.now();
      const r = await call(server, token, 'POST', `${L}/${list.id}/tags/bulk`, body);
      ms.push(Math.round(performance.now() - t0));
      if (r.status !== 200) throw new Error(`bulk create: ${r.status} ${r.text.slice(0, 300)}`);
    }
    return { id: list.id, bulkCreateMs: ms };
  };
  const read = async (listId: string) => {
    const t0 = performance.now();
    const r = await call(server, token, 'GET', `${L}/${listId}/tags`);
    const ms = performance.now() - t0;
    if (r.status !== 200) throw new Error(`GET tags: ${r.status} ${r.text.slice(0, 300)}`);
    return { ms, text: r.text };
  };

  const list = await newList('Bench list');
  out.bulkCreateMs = list.bulkCreateMs;
  out.bulkCreateTagsPerSecond = Math.round(BULK_SIZE / (median(out.bulkCreateMs) / 1000));
  out.peakRssAfterCreatesMb = memoryMb(server.pid, 'VmHWM');

  const gets: number[] = [];
  const stringifies: number[] = [];
  let tags: unknown[] = [];
  for (let i = 0; i < GET_RUNS; i++) {
    const r = await read(list.id); // the first is the list's first read; the others find it kept
    gets.push(r.ms);
    out.responseBytes = Buffer.byteLength(r.text);
    tags = JSON.parse(r.text) as unknown[];
    if (tags.length !== TAG_LIST_SIZE) throw new Error(`GET tags answered ${tags.length} tags`);
    const s0 = performance.now();
    JSON.stringify(tags);
    stringifies.push(performance.now() - s0);
  }
  out.getMs = Math.round(median(gets.slice(1)) * 10) / 10; // the first GET warms the route up
  out.stringifyMs = Math.round(median(stringifies.slice(1)) * 10) / 10;
  out.ratio = Math.round((out.getMs / out.stringifyMs) * 100) / 100;

  // Small changes, each followed by the first read of the new version.
  const afterChange: number[] = [];
  let live = tags as { id: string; data: { id: string } }[];
  for (let round = 0; round < 5; round++) {
    const change = {
      update: live.slice(round * 100, round * 100 + 100).map((x) => ({ id: x.id, data: { ...tagData(round), id: `${x.data.id}-r${round}` } })),
      create: Array.from({ length: 10 }, (_, i) => ({ data: tagData(TAG_LIST_SIZE + round * 10 + i) })),
      delete: live.slice(-10 * (round + 1), -10 * round || undefined).map((x) => x.id),
    };
    const c = await call(server, token, 'POST', `${L}/${list.id}/tags/bulk`, change);
    if (c.status !== 200) throw new Error(`bulk change: ${c.status} ${c.text.slice(0, 300)}`);
    const r = await read(list.id);
    afterChange.push(r.ms);
    live = JSON.parse(r.text);
    if (live.length !== TAG_LIST_SIZE) throw new Error(`GET tags after a change answered ${live.length} tags`);
  }
  out.afterChangeGetMs = Math.round(median(afterChange) * 10) / 10;
  out.afterChangeRatio = Math.round((out.afterChangeGetMs / out.stringifyMs) * 100) / 100;
  out.peakRssMb = memoryMb(server.pid, 'VmHWM');

  // Further lists, filled the same way, each read once: more samples of a first read.
  const cold = [gets[0]!];
  for (let n = 1; n < COLD_LISTS; n++) {
    const more = await newList(`Bench list ${n + 1}`);
    const r = await read(more.id);
    if ((JSON.parse(r.text) as unknown[]).length !== TAG_LIST_SIZE) throw new Error('GET tags of a further list answered the wrong count');
    cold.push(r.ms);
  }
  out.coldGetSamplesMs = cold.map((ms) => Math.round(ms));
  out.coldGetMs = Math.round(median(cold) * 10) / 10;
  out.coldRatio = Math.round((out.coldGetMs / out.stringifyMs!) * 100) / 100;
  return out;
}

export async function runTagBench(): Promise<TagBenchResult[]> {
  const results: TagBenchResult[] = [];
  for (const [kind, engine] of [['scanbase-pglite', 'PGlite'], ['scanbase-postgres', 'PostgreSQL']] as const) {
    const reason = unavailable(kind);
    if (reason) {
      results.push({ engine, target: 2, skipped: reason });
      continue;
    }
    console.log(`bench: tags on ${engine}: starting a fresh server`);
    const server = await startServer[kind]();
    try {
      results.push(await measure(server, engine));
    } catch (e) {
      results.push({ engine, target: 2, error: e instanceof Error ? e.message : String(e) });
    } finally {
      await server.stop();
    }
  }
  return results;
}

export function printTagTable(results: TagBenchResult[]): void {
  console.log(`\nTags: a ${TAG_LIST_SIZE.toLocaleString('en')}-tag list (bulk creates of ${BULK_SIZE.toLocaleString('en')} tags; GET of the whole list vs JSON.stringify of the same tags, target ≤ 2)`);
  console.log(['engine', 'bulk create (tags/s)', 'GET (ms)', 'stringify (ms)', 'ratio', `first GET of a list on the server (ms, ratio; median of ${COLD_LISTS} lists' first GETs)`, 'first GET after a small change (ms, ratio)', 'body (MB)', 'RSS idle / peak after creates / after reads (MB)'].join(' | '));
  for (const r of results) {
    if (r.skipped || r.error) {
      console.log(`${r.engine} | ${r.skipped ? `skipped: ${r.skipped}` : `error: ${r.error}`}`);
      continue;
    }
    console.log([
      r.engine, r.bulkCreateTagsPerSecond, r.getMs, r.stringifyMs, `${r.ratio}${r.ratio! <= r.target ? '' : ' (above target)'}`, `${r.coldGetMs}, ${r.coldRatio} (${(r.coldGetSamplesMs ?? []).join(' / ')})`, `${r.afterChangeGetMs}, ${r.afterChangeRatio}`,
      ((r.responseBytes ?? 0) / 1e6).toFixed(1), `${r.startRssMb ?? '?'} / ${r.peakRssAfterCreatesMb ?? '?'} / ${r.peakRssMb ?? '?'}`,
    ].join(' | '));
  }
}
