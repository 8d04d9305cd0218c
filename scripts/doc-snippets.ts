// `npm run docs:snippets [-- FILE.md…]`: runs the shell snippets of README.md and docs/*.md
// (the convention: scripts/doc-snippets-extract.ts and docs/architecture.md "Documentation
// that runs") against the service they start, so that a walk-through cannot break
// silently. Called by .ci/run; exits 1 naming the block that failed, with its output and
// the server's log.
//
// Each document runs in a Bash process of its own, in a fresh working folder that links
// the repository's top-level entries (so `npm start`, `npx scanbase` and `docs/…` work as
// from a checkout, and the files the snippets write stay in that folder), with the
// documented environment: none of the caller's variables but PATH (the pinned Node first,
// as npm scripts have it), HOME and the locale; DATA_DIR and SCANBASE_CONFIG_DIR in the
// folder; PORT a free port, to which `localhost:8080` in the snippets is moved.
// SNIPPETS_VERBOSE=1 prints what the blocks printed on success too.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractSnippets, scriptOf, type Snippet } from './doc-snippets-extract.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** A document's whole run, servers included (SNIPPETS_TIMEOUT seconds). */
const TIMEOUT_MS = Number(process.env.SNIPPETS_TIMEOUT || 300) * 1000;

/** What every document's script can call: start the service in the background (its own process group), and stop it. */
const PRELUDE = String.raw`
snippet_stop_server() {
  [ -f "$SNIPPET_STATE/server.pid" ] || return 0
  local pid; pid=$(cat "$SNIPPET_STATE/server.pid"); rm -f "$SNIPPET_STATE/server.pid"
  kill -TERM -- "-$pid" 2>/dev/null || return 0
  for _ in $(seq 1 300); do kill -0 -- "-$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL -- "-$pid" 2>/dev/null || true
}
snippet_server() {
  snippet_stop_server
  setsid bash -c "$1" >> "$SNIPPET_STATE/server.log" 2>&1 < /dev/null &
  local pid=$!
  echo "$pid" > "$SNIPPET_STATE/server.pid"
  for _ in $(seq 1 900); do
    if command curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz"; then return 0; fi
    if ! kill -0 "$pid" 2>/dev/null; then echo "the server exited before answering /healthz"; return 1; fi
    sleep 0.1
  done
  echo "the server did not answer /healthz within 90 s"
  return 1
}
`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** A working folder linking the repository's top-level entries (not its data or .git). */
function workFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-snippets-'));
  for (const entry of fs.readdirSync(ROOT)) {
    if (entry === '.git' || entry === 'data') continue;
    fs.symlinkSync(path.join(ROOT, entry), path.join(dir, entry));
  }
  return dir;
}

const tail = (text: string, lines: number) => text.split('\n').slice(-lines).join('\n');

interface DocResult { file: string; ran: number; skipped: number; failed?: string; output: string; serverLog: string }

async function runDocument(file: string, snippets: Snippet[]): Promise<DocResult> {
  const work = workFolder();
  const state = path.join(work, '.snippets');
  fs.mkdirSync(state);
  const port = await freePort();
  fs.writeFileSync(path.join(state, 'script.sh'), `${PRELUDE}\n${scriptOf(snippets, port)}`);
  const env: Record<string, string> = {
    PATH: `${path.join(ROOT, 'node_modules/.bin')}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: process.env.HOME ?? work,
    LANG: process.env.LANG ?? 'C.UTF-8',
    PORT: String(port),
    DATA_DIR: path.join(work, 'data'),
    SCANBASE_CONFIG_DIR: path.join(work, 'scanbase-config'),
    SNIPPET_STATE: state,
  };
  let output = '';
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn('bash', [path.join(state, 'script.sh')], { cwd: work, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      output += `\n(the document did not finish within ${TIMEOUT_MS / 1000} s)\n`;
      process.kill(-child.pid!, 'SIGKILL');
    }, TIMEOUT_MS);
    child.once('close', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  // A server left behind (the script was killed before its EXIT trap): its process group.
  const pidFile = path.join(state, 'server.pid');
  if (fs.existsSync(pidFile)) {
    try {
      process.kill(-Number(fs.readFileSync(pidFile, 'utf8')), 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  const read = (name: string) => (fs.existsSync(path.join(state, name)) ? fs.readFileSync(path.join(state, name), 'utf8').trim() : '');
  const current = read('current');
  const result: DocResult = {
    file,
    ran: snippets.filter((s) => s.mode !== 'skip').length,
    skipped: snippets.filter((s) => s.mode === 'skip').length,
    ...(code === 0 && current === 'done' ? {} : { failed: current || '(before the first block)' }),
    output,
    serverLog: read('server.log'),
  };
  fs.rmSync(work, { recursive: true, force: true });
  return result;
}

const files = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

let failures = 0;
for (const file of files) {
  const snippets = extractSnippets(fs.readFileSync(path.resolve(ROOT, file), 'utf8'), file);
  if (!snippets.some((s) => s.mode !== 'skip')) {
    if (snippets.length) console.log(`docs:snippets: ${file}: ${snippets.length} skipped (${snippets.map((s) => `:${s.line} ${s.reason}`).join('; ')})`);
    continue;
  }
  const started = Date.now();
  const r = await runDocument(file, snippets);
  const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
  if (!r.failed) {
    console.log(`docs:snippets: ${file}: ${r.ran} blocks ran, ${r.skipped} skipped, ok (${took})`);
    // SNIPPETS_VERBOSE=1: what the blocks printed, as a reader would see it.
    if (process.env.SNIPPETS_VERBOSE) console.log(r.output);
    continue;
  }
  failures++;
  const block = snippets.find((s) => `${s.file}:${s.line}` === r.failed);
  console.error(`docs:snippets: ${file}: FAILED at ${r.failed} (${took})`);
  if (block) console.error(`--- the block\n${block.text}`);
  console.error(`--- its output (last 60 lines)\n${tail(r.output, 60)}`);
  if (r.serverLog) console.error(`--- the server's log (last 30 lines)\n${tail(r.serverLog, 30)}`);
}
process.exit(failures ? 1 : 0);
