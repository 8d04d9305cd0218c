// `scanbase sandbox`: the operator's sandbox tools of a Scanbase deployment (docs/sandbox.md):
// snapshots (save, list, show, download, upload, restore, delete), fault rules (list, add,
// load, delete, clear), the request journal (filtered, --follow) and the clock (forward or
// back). Every command needs the deployment's operator token (--operator-token or
// SCANBASE_OPERATOR_TOKEN) and its address (--base-url, SCANBASE_BASE_URL).
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Command, Option } from 'commander';
import { createOperatorClient, type JournalEntry, type JournalFilter, type OperatorClient } from '@scanbase/sdk';
import { UsageError } from '../exit-codes.ts';
import { contextOf, type Context } from '../context.ts';

const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

function operatorOf(cmd: Command, opts: { timeout?: boolean } = {}): { ctx: Context; op: OperatorClient } {
  const ctx = contextOf(cmd);
  const token = cmd.optsWithGlobals<{ operatorToken?: string }>().operatorToken || process.env.SCANBASE_OPERATOR_TOKEN;
  if (!token) throw new UsageError('the operator token is required: --operator-token or SCANBASE_OPERATOR_TOKEN');
  // Snapshot files and followed journals take as long as they take: no deadline on those.
  const fetchFn = opts.timeout === false ? globalThis.fetch : ctx.timedFetch;
  return { ctx, op: createOperatorClient({ baseUrl: ctx.baseUrlOption ?? DEFAULT_BASE_URL, operatorToken: token, fetch: fetchFn }) };
}

/** A JSON document given inline or as @file. */
function jsonArgument(what: string, text: string): unknown {
  const source = text.startsWith('@') ? fs.readFileSync(text.slice(1), 'utf8') : text;
  try {
    return JSON.parse(source);
  } catch (e) {
    throw new UsageError(`${what}: not JSON (${(e as Error).message})`);
  }
}

const fileStream = (file: string) => Readable.toWeb(fs.createReadStream(file)) as unknown as ReadableStream<Uint8Array>;
const SNAPSHOT_COLUMNS = ['name', 'createdAt', 'engine', 'bytes', 'clockOffsetSeconds', 'signingKeys'] as const;

function snapshotCommands(): Command {
  const s = new Command('snapshot').description('save the whole state under a name, restore it, share it as a file');
  s.command('save <name>').description('save the whole state (every table and blob, the clock) under a name')
    .option('--signing-keys', 'include the token signing keys (tokens then survive a restore elsewhere)')
    .action(async (name: string, o: { signingKeys?: boolean }, cmd: Command) => {
      const { ctx, op } = operatorOf(cmd, { timeout: false });
      ctx.out.result(await op.snapshots.save(name, { signingKeys: o.signingKeys }));
    });
  s.command('list').description('the named snapshots, newest first').action(async (_o: unknown, cmd: Command) => {
    const { ctx, op } = operatorOf(cmd);
    ctx.out.result(await op.snapshots.list(), SNAPSHOT_COLUMNS);
  });
  s.command('show <name>').description('what a snapshot holds').action(async (name: string, _o: unknown, cmd: Command) => {
    const { ctx, op } = operatorOf(cmd);
    ctx.out.result(await op.snapshots.describe(name));
  });
  s.command('download <name>').description('write a snapshot\'s portable file')
    .option('-o, --output <file>', 'the file to write (default <name>.sbsnap)')
    .action(async (name: string, o: { output?: string }, cmd: Command) => {
      const { ctx, op } = operatorOf(cmd, { timeout: false });
      const file = o.output ?? `${name}.sbsnap`;
      const body = await op.snapshots.download(name);
      const part = `${file}.part`;
      await pipeline(Readable.fromWeb(body as import('node:stream/web').ReadableStream), fs.createWriteStream(part));
      fs.renameSync(part, file);
      ctx.out.result({ name, file, bytes: fs.statSync(file).size });
    });
  s.command('upload <name> <file>').description('keep a portable file under a name (the service verifies it whole)')
    .action(async (name: string, file: string, _o: unknown, cmd: Command) => {
      const { ctx, op } = operatorOf(cmd, { timeout: false });
      fs.accessSync(file, fs.constants.R_OK);
      ctx.out.result(await op.snapshots.upload(name, fileStream(file)));
    });
  s.command('restore <name>').description('replace the whole state by a named snapshot (or by --file, kept under the name)')
    .option('--file <file>', 'a portable file to upload and restore')
    .action(async (name: string, o: { file?: string }, cmd: Command) => {
      const { ctx, op } = operatorOf(cmd, { timeout: false });
      if (o.file) fs.accessSync(o.file, fs.constants.R_OK);
      ctx.out.result(await op.snapshots.restore(name, o.file ? fileStream(o.file) : undefined));
    });
  s.command('delete <name>').description('delete a named snapshot').action(async (name: string, _o: unknown, cmd: Command) => {
    const { ctx, op } = operatorOf(cmd);
    ctx.out.result(await op.snapshots.remove(name));
  });
  return s;
}

const RULE_COLUMNS = ['id', 'name', 'match', 'effect', 'probability', 'seed', 'count', 'matched', 'injected'] as const;

function faultCommands(): Command {
  const f = new Command('faults').description('fault rules (SANDBOX=1): statuses, delays (fixed or drawn), dropped connections, 429s, cut and slow answers, slowly read requests, refused refreshes, in a time window');
  f.command('list').description('the rules, with what each matched and injected').action(async (_o: unknown, cmd: Command) => {
    const { ctx, op } = operatorOf(cmd);
    ctx.out.result(await op.faults.list(), RULE_COLUMNS);
  });
  f.command('add <rule>').description('add one rule: JSON inline or @file, e.g. \'{"match":{"operationId":"getProjects"},"effect":{"kind":"status","status":503},"count":2}\'')
    .action(async (rule: string, _o: unknown, cmd: Command) => {
      const { ctx, op } = operatorOf(cmd);
      ctx.out.result(await op.faults.add(jsonArgument('rule', rule) as never));
    });
  f.command('load <file>').description('replace every rule by a file\'s {"rules": [...]} (as FAULTS_FILE)')
    .action(async (file: string, _o: unknown, cmd: Command) => {
      const { ctx, op } = operatorOf(cmd);
      const doc = jsonArgument('file', `@${file}`) as { rules?: unknown };
      ctx.out.result(await op.faults.replace((doc?.rules ?? doc) as never), RULE_COLUMNS);
    });
  f.command('delete <id>').description('delete one rule').action(async (id: string, _o: unknown, cmd: Command) => {
    const { ctx, op } = operatorOf(cmd);
    ctx.out.result(await op.faults.remove(id));
  });
  f.command('clear').description('delete every rule').action(async (_o: unknown, cmd: Command) => {
    const { ctx, op } = operatorOf(cmd);
    ctx.out.result(await op.faults.clear());
  });
  return f;
}

/** One journal entry on one line: time, status, method, path, operationId, user, why. */
export function journalLine(e: JournalEntry): string {
  const why = e.refusal ? ` ${e.errorCode} ${JSON.stringify(e.refusal)}` : e.errorCode ? ` ${e.errorCode}` : '';
  const fault = e.fault ? ` [fault ${e.fault.kind} ${e.fault.ruleId}]` : '';
  return `${e.at} ${e.status || 'dropped'} ${e.method} ${e.path}${e.operationId ? ` (${e.operationId})` : ''}${e.user ? ` user ${e.user}` : ''} ${e.durationMs} ms${why}${fault}`;
}

function journalCommand(): Command {
  return new Command('journal').description('the last requests and why each was refused; --follow shows them live')
    .option('--user <id>', 'one user\'s requests')
    .option('--status <status>', 'a status (403) or a class (4xx)')
    .option('--operation <operationId>', 'one operation')
    .option('--method <method>', 'one method')
    .option('--path <prefix>', 'paths starting with this')
    .option('--error-code <code>', 'one errorCode')
    .option('--since <instant>', 'from this instant (ISO 8601)')
    .option('--limit <n>', 'at most this many (default 100)')
    .option('--follow', 'keep printing new entries until Ctrl-C')
    .action(async (o: { user?: string; status?: string; operation?: string; method?: string; path?: string; errorCode?: string; since?: string; limit?: string; follow?: boolean }, cmd: Command) => {
      const { ctx, op } = operatorOf(cmd, { timeout: !o.follow });
      const limit = o.limit === undefined ? undefined : Number(o.limit);
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 1000)) throw new UsageError(`bad --limit: ${o.limit} (1 to 1000)`);
      const filter: JournalFilter = { user: o.user, status: o.status, operationId: o.operation, method: o.method, path: o.path, errorCode: o.errorCode, since: o.since, limit };
      const print = (e: JournalEntry) => (ctx.out.json ? process.stdout.write(`${JSON.stringify(e)}\n`) : process.stdout.write(`${journalLine(e)}\n`));
      const { entries, last } = await op.journal.query(filter);
      if (!o.follow) {
        if (ctx.out.json) ctx.out.result(entries);
        else entries.forEach(print);
        return;
      }
      entries.forEach(print);
      const stop = new AbortController();
      process.once('SIGINT', () => stop.abort());
      process.once('SIGTERM', () => stop.abort());
      await op.journal.follow({ ...filter, after: last, limit: undefined }, print, stop.signal);
    });
}

function clockCommand(): Command {
  return new Command('clock').description('the service clock (SANDBOX=1): show it, move it forward or back, or set it')
    .addOption(new Option('--advance <seconds>', 'move by this many seconds (negative: back)'))
    .option('--to <instant>', 'set it to this instant (ISO 8601)')
    .action(async (o: { advance?: string; to?: string }, cmd: Command) => {
      const { ctx, op } = operatorOf(cmd);
      if (o.advance !== undefined && o.to !== undefined) throw new UsageError('--advance or --to, not both');
      if (o.advance !== undefined) {
        const n = Number(o.advance);
        if (!Number.isFinite(n)) throw new UsageError(`bad --advance: ${o.advance}`);
        return ctx.out.result(await op.clock.advance(n));
      }
      if (o.to !== undefined) return ctx.out.result(await op.clock.setTo(o.to));
      ctx.out.result(await op.clock.get());
    });
}

export function sandboxCommand(): Command {
  const s = new Command('sandbox')
    .description('the operator\'s sandbox tools: snapshots, fault rules, the request journal, the clock (needs the operator token)')
    .addOption(new Option('--operator-token <token>', 'the deployment\'s OPERATOR_TOKEN').env('SCANBASE_OPERATOR_TOKEN'));
  s.addCommand(snapshotCommands());
  s.addCommand(faultCommands());
  s.addCommand(journalCommand());
  s.addCommand(clockCommand());
  return s;
}
