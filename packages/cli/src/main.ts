#!/usr/bin/env node
// scanbase: the command line of Scanbase, on @scanbase/sdk.
//   scanbase login [--server URL] [--port N]
//   scanbase logout | whoami
//   scanbase upload --account A --project P --zone Z [--concurrency N] [--journal FILE] FILE...
//   scanbase download --account A --project P --blob NAME --out FILE [--md5 HEX]
// Exit codes: 0 done, 1 the service refused (its error code printed), 2 usage.
import { parseArgs } from 'node:util';
import path from 'node:path';
import crypto from 'node:crypto';
import {
  ScanbaseError, TokenManager, FileTokenStore, createScanbaseClient, downloadFile, signInWithLoopback, uploadFiles,
} from '@scanbase/sdk/node';
import { UsageError, normalServer, readConfig, serverOf, storeOf, writeConfig } from './profiles.ts';

const USAGE = `usage: scanbase <command> [options]
  login     [--server URL] [--port N]          sign in through the browser (PKCE, loopback redirect)
  logout    [--server URL]                     revoke the refresh token and forget it
  whoami    [--server URL]                     the signed-in user, and whether the service accepts the token
  upload    --account A --project P --zone Z [--concurrency N] [--journal FILE] FILE...
  download  --account A --project P --blob NAME --out FILE [--md5 HEX]`;

const OPTIONS = {
  server: { type: 'string' }, port: { type: 'string' }, account: { type: 'string' }, project: { type: 'string' },
  zone: { type: 'string' }, concurrency: { type: 'string' }, journal: { type: 'string' }, blob: { type: 'string' },
  out: { type: 'string' }, md5: { type: 'string' }, help: { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

const need = (v: Values, ...names: (keyof Values)[]) => {
  for (const n of names) if (v[n] === undefined) throw new UsageError(`--${n} is required`);
};

function clientOf(v: Values) {
  const server = serverOf(v.server);
  const tokens = new TokenManager(server, storeOf(server));
  return createScanbaseClient({ baseUrl: server, tokens });
}

/** The default journal of a batch: one per target and set of files, under the configuration folder. */
const journalOf = (v: Values, files: string[]) =>
  v.journal ?? path.join(path.dirname(storeOf(serverOf(v.server)).file), '..', '..', 'uploads',
    `${crypto.createHash('sha256').update(JSON.stringify([v.account, v.project, v.zone, files.map((f) => path.resolve(f)).sort()])).digest('hex').slice(0, 24)}.json`);

async function run(argv: string[]): Promise<void> {
  const { values: v, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  const [command, ...rest] = positionals;
  if (v.help || !command) {
    console.log(USAGE);
    return;
  }
  switch (command) {
    case 'login': {
      const server = normalServer(v.server || process.env.SCANBASE_SERVER || readConfig().current || 'http://127.0.0.1:8080');
      const tokens = await signInWithLoopback({
        baseUrl: server,
        port: v.port ? Number(v.port) : 0,
        open: (url) => console.log(`Open this address in a browser to sign in:\n${url}`),
      });
      await FileTokenStore.forProfile(server, tokens.userId).write(tokens);
      const config = readConfig();
      writeConfig({ current: server, users: { ...config.users, [server]: tokens.userId } });
      console.log(`Signed in on ${server} as ${tokens.userId}`);
      return;
    }
    case 'logout': {
      const server = serverOf(v.server);
      await new TokenManager(server, storeOf(server)).logout();
      const config = readConfig();
      delete config.users[server];
      writeConfig(config);
      console.log(`Signed out of ${server}`);
      return;
    }
    case 'whoami': {
      const client = clientOf(v);
      await client.api1.GET('/api/isLogged');
      console.log(`${(await client.tokens!.store.read())!.userId} on ${client.baseUrl}`);
      return;
    }
    case 'upload': {
      need(v, 'account', 'project', 'zone');
      if (!rest.length) throw new UsageError('upload: no file given');
      const out = await uploadFiles(clientOf(v), {
        accountId: v.account!, projectId: v.project!, workzoneId: v.zone!, files: rest,
        concurrency: v.concurrency ? Number(v.concurrency) : 4, journal: journalOf(v, rest),
        onProgress: (p) => p.event !== 'bytes' && process.stderr.write(`${p.event} ${p.file ?? ''} (${p.filesDone}/${p.filesTotal} files, ${p.bytesDone}/${p.bytesTotal} bytes)\n`),
      });
      for (const f of out) console.log(`${f.skipped ? 'already there' : 'uploaded'}\t${f.id}\t${f.blobName}\t${f.path}`);
      return;
    }
    case 'download': {
      need(v, 'account', 'project', 'blob', 'out');
      const r = await downloadFile(clientOf(v), { accountId: v.account!, projectId: v.project!, blobName: v.blob!, dest: v.out!, md5: v.md5 });
      console.log(`${v.out}\t${r.bytes} bytes${r.resumedFrom ? ` (resumed at ${r.resumedFrom})` : ''}`);
      return;
    }
    default:
      throw new UsageError(`unknown command: ${command}\n${USAGE}`);
  }
}

try {
  await run(process.argv.slice(2));
} catch (e) {
  if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`scanbase: ${(e as Error).message}`);
    process.exitCode = 2;
  } else if (e instanceof ScanbaseError) {
    console.error(`scanbase: ${e.errorCode} (${e.status}): ${e.message}`);
    process.exitCode = 1;
  } else throw e;
}
