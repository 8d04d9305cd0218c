// files point-cloud <file>: a point-cloud file's conversion to COPC (our extension,
// docs/point-clouds.md): its state, points read, percent, ETA, the failure's reason; with
// --wait, a progress bar until it is done (exit 0) or failed (exit 1, the reason printed).
import { Command, Option } from 'commander';
import { pointCloudStatus, waitForPointCloud, type PointCloudStatus } from '@scanbase/sdk/node';
import { contextOf } from '../context.ts';
import { EXIT, UsageError } from '../exit-codes.ts';
import { progressBar } from '../progress.ts';
import { checkScope, resolveScope, withScope, type ScopeOptions } from './resources.ts';

const COLUMNS = ['fileId', 'state', 'phase', 'pointsRead', 'pointsTotal', 'percent', 'etaSeconds', 'reason', 'message', 'pointCount', 'copcSize'] as const;

export function pointCloudCommand(): Command {
  return withScope(new Command('point-cloud'), 'project')
    .description('a point-cloud file\'s (E57, LAS, LAZ, PLY) conversion to COPC: state, progress, ETA, failure reason')
    .argument('<file>', 'the file (URN, UUID or API 1 id)')
    .option('--wait', 'wait until the conversion is done or failed (a progress bar on a terminal)')
    .addOption(new Option('--wait-timeout <seconds>', 'with --wait: give up after this long'))
    .action(async (file: string, o: ScopeOptions & { wait?: boolean; waitTimeout?: string }, cmd: Command) => {
      const ctx = contextOf(cmd);
      checkScope('project', o);
      const timeout = o.waitTimeout === undefined ? undefined : Number(o.waitTimeout);
      if (timeout !== undefined && !(timeout > 0)) throw new UsageError(`bad --wait-timeout: ${o.waitTimeout} (seconds, > 0)`);
      const { client } = await ctx.signedIn();
      const refs = await resolveScope(client, 'project', o);
      let status: PointCloudStatus;
      if (o.wait) {
        const bar = progressBar('converting', 'items');
        try {
          status = await waitForPointCloud(client, refs, file, {
            timeoutMs: timeout === undefined ? undefined : timeout * 1000,
            onProgress: (s) => bar.update(Math.round(s.percent), 100, `${s.phase ?? s.state} ${s.pointsRead}/${s.pointsTotal} points${s.etaSeconds === null ? '' : `, ${s.etaSeconds} s left`}`),
          });
        } finally {
          bar.stop();
        }
      } else {
        status = await pointCloudStatus(client, refs, file);
      }
      ctx.out.result(status, COLUMNS);
      if (o.wait && status.state === 'failed') {
        process.exitCode = EXIT.failure;
        ctx.out.note(`conversion failed (${status.reason}): ${status.message}`);
      }
    });
}
