// upload PATH… and download: the SDK's resumable transfers with a progress bar on a terminal.
import crypto from 'node:crypto';
import path from 'node:path';
import { Command, Option } from 'commander';
import { downloadFile, uploadFiles } from '@scanbase/sdk/node';
import { contextOf } from '../context.ts';
import { UsageError } from '../exit-codes.ts';
import { journalsDir } from '../profiles.ts';
import { progressBar } from '../progress.ts';
import { checkScope, resolveScope, withScope, type ScopeOptions } from './resources.ts';

const positiveInt = (name: string, v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new UsageError(`bad --${name}: ${v} (1 to 64)`);
  return n;
};

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
    .option('--journal <file>', 'the resume journal (default: one per target and set of files, in the configuration folder)')
    .action(async (files: string[], o: ScopeOptions & { zone: string; concurrency: string; journal?: string }, cmd: Command) => {
      const ctx = contextOf(cmd);
      checkScope('project', o);
      const concurrency = positiveInt('concurrency', o.concurrency);
      const { client } = await ctx.signedIn();
      const { accountId, projectId } = await resolveScope(client, 'project', o);
      const bar = progressBar('upload');
      let out;
      try {
        out = await uploadFiles(client, {
          accountId, projectId, workzoneId: o.zone, files, concurrency,
          journal: o.journal ?? journalOf(ctx.profile, { ...o, account: accountId }, files),
          onProgress: (p) => bar.update(p.bytesDone, p.bytesTotal, `${p.filesDone}/${p.filesTotal} files`),
        });
      } finally {
        bar.stop();
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
    .action(async (fileId: string | undefined, o: ScopeOptions & { blob?: string; out?: string; md5?: string }, cmd: Command) => {
      const ctx = contextOf(cmd);
      checkScope('project', o);
      if (!fileId === !o.blob) throw new UsageError('download: give a file id or --blob NAME (one of them)');
      if (o.blob && !o.out) throw new UsageError('download --blob: --out is required');
      const { client } = await ctx.signedIn();
      const { accountId, projectId, path: base } = await resolveScope(client, 'project', o);
      let { blob: blobName, out: dest, md5 } = o;
      if (fileId) {
        const f = (await (await client.fetch(`${base}/files/${encodeURIComponent(fileId)}`)).json()) as { blobName: string; md5: string; name: string; extension: string };
        blobName = f.blobName;
        md5 ??= f.md5;
        dest ??= `${f.name}.${f.extension}`;
      }
      const bar = progressBar('download');
      let r;
      try {
        r = await downloadFile(client, {
          accountId, projectId, blobName: blobName!, dest: dest!, md5,
          onProgress: (p) => bar.update(p.bytesDone, p.bytesTotal ?? p.bytesDone, path.basename(dest!)),
        });
      } finally {
        bar.stop();
      }
      ctx.out.result({ path: dest, bytes: r.bytes, resumedFrom: r.resumedFrom, md5Checked: Boolean(md5) });
    });
  return [upload, download];
}
