// tags export | import: a tag list's tags to and from JSON or CSV (tags-csv.ts), written
// in the SDK's batches (each batch all or nothing; a failure says how many were written).
import fs from 'node:fs';
import { Command, Option } from 'commander';
import { readTags, writeTags } from '@scanbase/sdk/node';
import { contextOf } from '../context.ts';
import { UsageError } from '../exit-codes.ts';
import { csvToTagData, tagsToCsv } from '../tags-csv.ts';
import { progressBar } from '../progress.ts';
import { checkScope, resolveScope, withScope, type ScopeOptions } from './resources.ts';

type Format = 'json' | 'csv';
const formatOf = (given: string | undefined, file: string | undefined): Format => {
  const f = given ?? (file?.toLowerCase().endsWith('.csv') ? 'csv' : 'json');
  if (f !== 'json' && f !== 'csv') throw new UsageError(`bad --format: ${f} (json or csv)`);
  return f;
};

export function tagCommands(): Command {
  const tags = new Command('tags').description('a tag list\'s tags: export, import (JSON or CSV)');
  tags.addCommand(
    withScope(new Command('export'), 'project')
      .description('write the live tags of a list (JSON: the service\'s tags; CSV: one row per tag)')
      .requiredOption('--list <tagList>', 'the tag list')
      .addOption(new Option('--format <format>', 'json or csv (default: from --out\'s extension, else json)'))
      .option('--out <file>', 'the file (default: standard output)')
      .action(async (o: ScopeOptions & { list: string; format?: string; out?: string }, cmd: Command) => {
        const ctx = contextOf(cmd);
        checkScope('project', o);
        const format = formatOf(o.format, o.out);
        const { client } = await ctx.signedIn();
        const list = await readTags(client, await resolveScope(client, 'project', o), o.list);
        const text = format === 'csv' ? tagsToCsv(list as { id: string; data: Record<string, unknown> }[]) : `${JSON.stringify(list, null, 2)}\n`;
        if (o.out) {
          fs.writeFileSync(o.out, text);
          ctx.out.result({ list: o.list, tags: list.length, format, out: o.out });
        } else process.stdout.write(text);
      }),
  );
  tags.addCommand(
    withScope(new Command('import'), 'project')
      .description('create tags in a list from a file of an export (JSON: tags or bare tag data; CSV)')
      .argument('<file>', 'the file, or - for standard input')
      .requiredOption('--list <tagList>', 'the tag list')
      .addOption(new Option('--format <format>', 'json or csv (default: from the file\'s extension, else json)'))
      .option('--replace', 'delete the list\'s live tags first (in the same batches)')
      .action(async (file: string, o: ScopeOptions & { list: string; format?: string; replace?: boolean }, cmd: Command) => {
        const ctx = contextOf(cmd);
        checkScope('project', o);
        const format = formatOf(o.format, file);
        const text = fs.readFileSync(file === '-' ? 0 : file, 'utf8');
        let data: Record<string, unknown>[];
        try {
          data = format === 'csv' ? csvToTagData(text) : jsonToTagData(text);
        } catch (e) {
          throw new UsageError(`${file}: ${(e as Error).message}`);
        }
        const { client } = await ctx.signedIn();
        const refs = await resolveScope(client, 'project', o);
        const remove = o.replace ? (await readTags(client, refs, o.list)).map((t) => (t as { id: string }).id) : [];
        const bar = progressBar('import', 'items');
        let r;
        try {
          r = await writeTags(client, refs, o.list, { delete: remove, create: data.map((d) => ({ data: d })) }, {
            onProgress: (done, total) => bar.update(done, total, 'tags'),
          });
        } finally {
          bar.stop();
        }
        ctx.out.result({ list: o.list, created: r.created.length, deleted: r.deleted.length, batches: r.batches, tagsVersion: r.tagsVersion });
      }),
  );
  return tags;
}

/** A JSON export (tags with `data`) or an array of bare tag data. */
function jsonToTagData(text: string): Record<string, unknown>[] {
  const v = JSON.parse(text) as unknown;
  if (!Array.isArray(v)) throw new Error('expected a JSON array of tags');
  return v.map((t, i) => {
    if (!t || typeof t !== 'object') throw new Error(`item ${i}: not an object`);
    const o = t as Record<string, unknown>;
    return (o.type === 'tag' && o.data && typeof o.data === 'object' ? o.data : o) as Record<string, unknown>;
  });
}
