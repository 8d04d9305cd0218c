// `scanbase proxy`: the recording proxy and the diff of a recorded session against another
// service (docs/sandbox.md "The recording proxy").
import fs from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import { UsageError } from '../exit-codes.ts';
import { startRecorder } from '../proxy/record.ts';
import { replaySession, reportText, type ReplayAuth } from '../proxy/replay.ts';
import { EXCHANGES_FILE, SESSION_FILE } from '../proxy/session.ts';

const collect = (value: string, previous: string[] = []) => [...previous, value];

function readJsonFile(option: string, file: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`${option} ${file}: ${(e as Error).message}`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new UsageError(`${option} ${file}: expected a JSON object`);
  return v as Record<string, unknown>;
}

function portOf(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`bad --port: ${text}`);
  return n;
}

function urlOf(option: string, text: string | undefined): string {
  if (!text) throw new UsageError(`${option} is required`);
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new UsageError(`${option} ${text}: not a URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`${option} ${text}: an http(s) URL`);
  return u.href.replace(/\/+$/, '');
}

interface DiffOptions {
  against?: string;
  json?: boolean;
  operatorToken?: string;
  user?: string[];
  as?: string;
  tokenFile?: string;
  map?: string;
}

function diffCommand(): Command {
  return new Command('diff')
    .description('replay a recorded session against another service and report, per request, where the answers differ (exit 1 when any does)')
    .argument('<dir>', 'the directory a `scanbase proxy --record` wrote')
    .option('--against <url>', 'the service to replay against (its base URL)')
    .option('--json', 'print the report as JSON')
    .addOption(new Option('--operator-token <token>', 'that service\'s operator token: a token pair per recorded user, by e-mail').env('SCANBASE_OPERATOR_TOKEN'))
    .option('--user <id=email>', 'sign a recorded user (its recorded id or e-mail placeholder) in as this e-mail (repeatable)', collect)
    .option('--as <email>', 'sign every recorded user without another in as this e-mail')
    .option('--token-file <file>', 'JSON: recorded user id or token placeholder → access token (or {access_token, refresh_token})')
    .option('--map <file>', 'JSON: placeholder → value, put back in the requests (e.g. the proxy\'s --keys file)')
    .action(async (dir: string, o: DiffOptions, cmd: Command) => {
      const json = o.json || Boolean(cmd.optsWithGlobals<{ json?: boolean }>().json);
      const users: Record<string, string> = {};
      for (const pair of o.user ?? []) {
        const eq = pair.lastIndexOf('=');
        if (eq <= 0) throw new UsageError(`--user ${pair}: expected RECORDED_ID=EMAIL`);
        users[pair.slice(0, eq)] = pair.slice(eq + 1);
      }
      const auth: ReplayAuth = {
        operatorToken: o.operatorToken || undefined, users, as: o.as,
        tokens: o.tokenFile ? (readJsonFile('--token-file', o.tokenFile) as ReplayAuth['tokens']) : undefined,
      };
      const map = o.map ? readJsonFile('--map', o.map) : undefined;
      if (map && Object.values(map).some((v) => typeof v !== 'string')) throw new UsageError(`--map ${o.map}: every value must be a string`);
      if (!fs.existsSync(path.join(dir, SESSION_FILE))) throw new UsageError(`${dir} holds no recorded session (no ${SESSION_FILE})`);
      const report = await replaySession({ dir, against: urlOf('--against', o.against), map: map as Record<string, string> | undefined, ...auth });
      process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : reportText(report));
      // As diff(1): 1 when the answers differ.
      if (report.summary.different) process.exitCode = 1;
    });
}

export function proxyCommand(): Command {
  const proxy = new Command('proxy')
    .description('a recording proxy: forward a client\'s requests to a service and record them (redacted) to a directory; `proxy diff` replays them elsewhere')
    .option('--target <url>', 'the service to forward to (its base URL)')
    .option('--record <dir>', 'the directory to record the session to (new or empty)')
    .option('--port <n>', 'the port to listen on (default 8081; 0: any free one)', '8081')
    .option('--host <address>', 'the address to listen on', '127.0.0.1')
    .option('--keys <file>', 'keep placeholder → value of the personal data met (e-mails, names…) in this file, outside the session, for `diff --map`')
    .action(async (o: { target?: string; record?: string; port: string; host: string; keys?: string }) => {
      const target = urlOf('--target', o.target);
      if (!o.record) throw new UsageError('--record is required');
      const exchanges = path.join(o.record, EXCHANGES_FILE);
      if (fs.existsSync(exchanges) && fs.statSync(exchanges).size > 0) throw new UsageError(`${o.record} already holds a recorded session: record into a new directory`);
      const recorder = await startRecorder({ target, dir: o.record, port: portOf(o.port), host: o.host, keysFile: o.keys });
      process.stderr.write(`scanbase proxy: listening on ${recorder.url}, forwarding to ${target}, recording to ${o.record} (Ctrl-C to stop)\n`);
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await recorder.close();
      process.stderr.write(`scanbase proxy: ${recorder.count()} exchanges recorded to ${o.record}\n`);
    });
  proxy.addCommand(diffCommand());
  return proxy;
}
