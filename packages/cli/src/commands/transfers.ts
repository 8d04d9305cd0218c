// upload PATH… and download: the SDK's resumable transfers with a progress bar on a terminal.
import crypto from 'node:crypto';
import path from 'node:path';
import { Command, Option } from 'commander';
import fs from 'node:fs';
import { DEFAULT_MULTIPART_THRESHOLD, downloadFile, downloadRanged, uploadFiles } from '@scanbase/sdk/node';
import { contextOf } from '../context.ts';
import { UsageError } from '../exit-codes.ts';
import { journalsDir } from '../profiles.ts';
import { progressBar } from '../progress.ts';
import { transferProgress } from '../transfer-progress.ts';
import { checkScope, resolveScope, withScope, type ScopeOptions } from './resources.ts';

const positiveInt = (name: string, v: string, max = 64) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`bad --${name}: ${v} (1 to ${max})`);
  return n;
};
const MiB = 1024 * 1024;

/**
 * An AbortSignal that Ctrl-C (SIGINT) or SIGTERM aborts: the transfer stops, its journal
 * kept for the same command to resume; a second Ctrl-C exits at once.
 */
function cancelOnSignals(): { signal: AbortSignal; done(): void } {
  const ac = new AbortController();
  const stop = () => {
    if (ac.signal.aborted) process.exit(130);
    process.stderr.write('\ncancelling: run the same command again to resume\n');
    ac.abort();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return {
    signal: ac.signal,
    done() {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}

/** The default journal of a batch: one per profile, target and set of files. */
const journalOf = (profile: string, o: ScopeOptions & { zone: string }, files: string[]) =>
  path.join(journalsDir(), `${crypto.createHash('sha256')
    .update(JSON.stringify([profile, o.account, o.project, o.zone, files.map((f) => path.resolve(f)).sort()]))
    .digest('hex').slice(0, 24)}.json`);

export function transferCommands(): Command[] {
  const upload = withScope(new Command('upload'), 'project')
    .description('upload files to a work zone: parallel, resumable (run the same command again after an interruption)')
    .argument('<path...>', 'the files')
    .requiredOption('--zone <zone>', 'the work zone')
    .addOption(new Option('--concurrency <n>', 'files in flight at once').default('4'))
    .addOption(new Option('--parallel <n>', 'parts in flight at once for files sent in parts').default('4'))
    .addOption(new Option('--multipart-threshold <MiB>', 'files larger than this are sent in parts').default(String(DEFAULT_MULTIPART_THRESHOLD / MiB)))
    .option('--part-size <MiB>', 'the part size to ask the service for (it decides, within its store\'s limits)')
    .option('--journal <file>', 'the resume journal (default: one per target and set of files, in the configuration folder)')
    .action(async (files: string[], o: ScopeOptions & {
      zone: string; concurrency: string; parallel: string; multipartThreshold: string; partSize?: string; journal?: string;
    }, cmd: Command) => {
      const ctx = contextOf(cmd);
      checkScope('project', o);
      const concurrency = positiveInt('concurrency', o.concurrency);
      const parallel = positiveInt('parallel', o.parallel);
      const multipartThreshold = positiveInt('multipart-threshold', o.multipartThreshold, 5 * 1024 * 1024) * MiB;
      const partSize = o.partSize === undefined ? undefined : positiveInt('part-size', o.partSize, 5 * 1024) * MiB;
      const { client } = await ctx.signedIn();
      const { accountId, projectId } = await resolveScope(client, 'project', o);
      const bars = transferProgress('upload');
      const cancel = cancelOnSignals();
      let out;
      try {
        out = await uploadFiles(client, {
          accountId, projectId, workzoneId: o.zone, files, concurrency, parallel, multipartThreshold, partSize,
          journal: o.journal ?? journalOf(ctx.profile, { ...o, account: accountId }, files), signal: cancel.signal,
          onProgress: (p) => {
            bars.overall(p.bytesDone, p.bytesTotal, p.bytesPerSecond, p.etaSeconds, `${p.filesDone}/${p.filesTotal} files`);
            if (p.file && p.fileBytesTotal !== undefined) {
              bars.file(path.basename(p.file), p.fileBytesDone ?? 0, p.fileBytesTotal, p.fileBytesPerSecond ?? 0, p.fileEtaSeconds,
                p.event === 'registered' || p.event === 'skipped');
            }
          },
        });
      } finally {
        cancel.done();
        bars.stop();
      }
      ctx.out.result(
        out.map((f) => ({ status: f.skipped ? 'already there' : 'uploaded', id: f.id, blobName: f.blobName, size: f.size, md5: f.md5, path: f.path })),
        ['status', 'id', 'blobName', 'size', 'path'],
      );
    });

  const download = withScope(new Command('download'), 'project')
    .description('download a file (by its id, or --blob NAME), resuming a .part left by an interrupted run; the MD5 is checked')
    .argument('[file]', 'the file\'s id (or URN)')
    .option('--blob <name>', 'the blob name instead of a file id')
    .option('--out <path>', 'where to write (default: the file\'s name in the current folder)')
    .option('--md5 <hex>', 'the expected MD5 (default: the file\'s)')
    .addOption(new Option('--parallel <n>', 'ranges in flight at once for a file over the threshold').default('4'))
    .addOption(new Option('--multipart-threshold <MiB>', 'files larger than this are fetched in parallel ranges').default(String(DEFAULT_MULTIPART_THRESHOLD / MiB)))
    .action(async (fileId: string | undefined, o: ScopeOptions & { blob?: string; out?: string; md5?: string; parallel: string; multipartThreshold: string }, cmd: Command) => {
      const ctx = contextOf(cmd);
      checkScope('project', o);
      if (!fileId === !o.blob) throw new UsageError('download: give a file id or --blob NAME (one of them)');
      if (o.blob && !o.out) throw new UsageError('download --blob: --out is required');
      const { client } = await ctx.signedIn();
      const { accountId, projectId, path: base } = await resolveScope(client, 'project', o);
      let { blob: blobName, out: dest, md5 } = o;
      let size: number | undefined;
      if (fileId) {
        const f = (await (await client.fetch(`${base}/files/${encodeURIComponent(fileId)}`)).json()) as { blobName: string; md5: string; name: string; extension: string; size: number };
        blobName = f.blobName;
        md5 ??= f.md5;
        dest ??= `${f.name}.${f.extension}`;
        size = f.size;
      }
      const parallel = positiveInt('parallel', o.parallel);
      const threshold = positiveInt('multipart-threshold', o.multipartThreshold, 5 * 1024 * 1024) * MiB;
      const where = { accountId, projectId, blobName: blobName!, dest: dest!, md5 };
      // Over the threshold (the file record's size, or a range state left by an earlier run): parallel ranges.
      const ranged = (size !== undefined && size > threshold) || fs.existsSync(`${dest}.part.json`);
      if (ranged) {
        const bars = transferProgress('download');
        const cancel = cancelOnSignals();
        let r;
        try {
          r = await downloadRanged(client, {
            ...where, parallel, signal: cancel.signal,
            onProgress: (p) => bars.overall(p.bytesDone, p.bytesTotal, p.bytesPerSecond, p.etaSeconds, path.basename(dest!)),
          });
        } finally {
          cancel.done();
          bars.stop();
        }
        ctx.out.result({ path: dest, bytes: r.bytes, rangesKept: r.rangesKept, rangesFetched: r.rangesFetched, md5Checked: Boolean(md5) });
        return;
      }
      const bar = progressBar('download');
      let r;
      try {
        r = await downloadFile(client, {
          ...where,
          onProgress: (p) => bar.update(p.bytesDone, p.bytesTotal ?? p.bytesDone, path.basename(dest!)),
        });
      } finally {
        bar.stop();
      }
      ctx.out.result({ path: dest, bytes: r.bytes, resumedFrom: r.resumedFrom, md5Checked: Boolean(md5) });
    });
  return [upload, download];
}
