// subscriptions usage-report <subscription>: the vendor's getUsageReport (docs/usage.md);
// tag-lists pnid-add <list> --data: the vendor's addPnIdElementsInTagList (docs/pnid.md).
import fs from 'node:fs';
import { Command, Option } from 'commander';
import { contextOf } from '../context.ts';
import { UsageError } from '../exit-codes.ts';
import { subscriptionIdOf } from '../names.ts';
import { checkScope, resolveScope, withScope, type ScopeOptions } from './resources.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const REPORT_COLUMNS = ['date', 'email', 'projectName', 'scansUploaded', '360ImagesUploaded', 'tagsUploaded', 'unifiedMeshesCreated'];

export function usageReportCommand(): Command {
  return withScope(new Command('usage-report'), 'account')
    .description('actions per day, per user, per project on a subscription (scans, 360 images, tags, meshes)')
    .argument('<subscription>', 'the subscription: its name or id')
    .addOption(new Option('--from <day>', 'first day, YYYY-MM-DD (default: 29 days before --until)'))
    .addOption(new Option('--until <day>', 'last day, YYYY-MM-DD (default: today, UTC)'))
    .option('--include-deleted', 'also projects deleted since')
    .action(async (subscription: string, o: ScopeOptions & { from?: string; until?: string; includeDeleted?: boolean }, cmd: Command) => {
      const ctx = contextOf(cmd);
      for (const [flag, v] of [['--from', o.from], ['--until', o.until]] as const) if (v !== undefined && !DAY.test(v)) throw new UsageError(`${flag}: expected YYYY-MM-DD, got "${v}"`);
      const { client } = await ctx.signedIn();
      const scope = await resolveScope(client, 'account', o);
      const sub = await subscriptionIdOf(client, scope.accountId, subscription);
      const q = new URLSearchParams();
      if (o.from) q.set('from', o.from);
      if (o.until) q.set('until', o.until);
      if (o.includeDeleted) q.set('includeDeleted', 'true');
      const res = await client.fetch(`${scope.path}/subscriptions/${encodeURIComponent(sub)}/usage-report${q.size ? `?${q}` : ''}`);
      ctx.out.result(await res.json(), REPORT_COLUMNS);
    });
}

export function pnidAddCommand(): Command {
  return withScope(new Command('pnid-add'), 'project')
    .description('add detected P&ID instruments and pipes as tags on existing pages of a 2d tag list')
    .argument('<list>', 'the tag list (URN, UUID or API 1 id)')
    .requiredOption('--data <json>', 'the body {"pages":[{attachmentId, index, instruments, pipes}]}: JSON, @FILE, or - for standard input')
    .action(async (list: string, o: ScopeOptions & { data: string }, cmd: Command) => {
      const ctx = contextOf(cmd);
      checkScope('project', o);
      const text = o.data === '-' ? fs.readFileSync(0, 'utf8') : o.data.startsWith('@') ? fs.readFileSync(o.data.slice(1), 'utf8') : o.data;
      try {
        JSON.parse(text);
      } catch (e) {
        throw new UsageError(`--data: not JSON: ${(e as Error).message}`);
      }
      const { client } = await ctx.signedIn();
      const scope = await resolveScope(client, 'project', o);
      const res = await client.fetch(`${scope.path}/tag-lists/${encodeURIComponent(list)}/pnid-elements/bulk-add`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: text,
      });
      ctx.out.result(await res.json(), ['id', 'name', 'tagListType', 'tagsVersion']);
    });
}
