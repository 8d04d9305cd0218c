// npm run docs:snippets (scripts/doc-snippets.ts): which blocks of the documentation run and
// how, and that the run fails when a block fails, a command or an HTTP error answer alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SnippetSyntaxError, extractSnippets, onPort, scriptOf } from '../../scripts/doc-snippets-extract.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const DOC = [
  '# Title', '', 'Some text.', '',
  '```sh', 'echo one', '```', '',
  '<!-- snippet: skip (needs a browser) -->', '', '```bash', 'xdg-open http://localhost:8080/', '```',
  '<!-- snippet: server -->', '```sh', 'npm start', '```',
  '```json', '{"not": "shell"}', '```',
  '- a list', '  ```shell', '  curl -s http://127.0.0.1:8080/healthz', '  ```',
].join('\n');

test('shell blocks are extracted with their line and mode; other languages are not; an indented block loses its indent', () => {
  const s = extractSnippets(DOC, 'doc.md');
  assert.deepEqual(s.map((x) => [x.line, x.mode, x.reason, x.text]), [
    [5, 'run', undefined, 'echo one'],
    [11, 'skip', 'needs a browser', 'xdg-open http://localhost:8080/'],
    [15, 'server', undefined, 'npm start'],
    [22, 'run', undefined, 'curl -s http://127.0.0.1:8080/healthz'],
  ]);
});

test('a skip without a reason, an unknown annotation and an unclosed fence are refused', () => {
  assert.throws(() => extractSnippets('<!-- snippet: skip -->\n```sh\ntrue\n```', 'a.md'), SnippetSyntaxError);
  assert.throws(() => extractSnippets('<!-- snippet: later -->\n```sh\ntrue\n```', 'a.md'), /a\.md:2: unknown snippet annotation "later"/);
  assert.throws(() => extractSnippets('```sh\ntrue\n', 'a.md'), /never closes/);
});

test("the documented port is moved to the run's, and the script runs blocks in order, skipping, announcing each", () => {
  assert.equal(onPort('curl http://localhost:8080/a http://127.0.0.1:8080/b http://localhost:80801/', 9123), 'curl http://localhost:9123/a http://127.0.0.1:9123/b http://localhost:80801/');
  const script = scriptOf(extractSnippets(DOC, 'doc.md'), 9123);
  assert.match(script, /^set -euo pipefail\n/);
  assert.ok(!script.includes('xdg-open'), 'the skipped block is not in the script');
  assert.ok(script.indexOf('echo one') < script.indexOf("snippet_server 'npm start'"));
  assert.match(script, /'doc\.md:22' > "\$SNIPPET_STATE\/current"\n[^\n]*\ncurl -s http:\/\/127\.0\.0\.1:9123\/healthz/);
});

/** The runner on one document written under docs/ for the test (it reads paths from the repository). */
function runOn(markdown: string): { status: number | null; output: string } {
  const name = `docs/zz-snippets-test-${process.pid}.md`;
  fs.writeFileSync(path.join(ROOT, name), markdown);
  try {
    const r = spawnSync(process.execPath, ['scripts/doc-snippets.ts', name], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    return { status: r.status, output: r.stdout + r.stderr };
  } finally {
    fs.rmSync(path.join(ROOT, name), { force: true });
  }
}

const STUB_SERVER = [
  '<!-- snippet: server -->', '```sh',
  // A stand-in service: /healthz 200, anything else 404.
  `node -e "require('http').createServer((q, s) => { s.writeHead(q.url === '/healthz' ? 200 : 404); s.end(q.url); }).listen(process.env.PORT)"`,
  '```', '',
].join('\n');

test('the run passes when every block does, carrying variables from block to block, against the server a block started', () => {
  const r = runOn(`${STUB_SERVER}\n\`\`\`sh\nX=$(curl -s http://localhost:8080/healthz)\n\`\`\`\n\n\`\`\`sh\ntest "$X" = /healthz\n\`\`\`\n`);
  assert.equal(r.status, 0, r.output);
  assert.match(r.output, /2 blocks ran, 0 skipped, ok|3 blocks ran, 0 skipped, ok/);
});

test('the run fails naming the block when a command fails, and when curl gets an HTTP error answer', () => {
  const failing = runOn('```sh\necho before\nfalse\necho after\n```\n');
  assert.equal(failing.status, 1);
  assert.match(failing.output, /FAILED at docs\/zz-snippets-test-\d+\.md:1/);
  assert.doesNotMatch(failing.output, /\nafter\n/);
  const http = runOn(`${STUB_SERVER}\n\`\`\`sh\ncurl -s http://localhost:8080/missing\n\`\`\`\n`);
  assert.equal(http.status, 1, http.output);
  assert.match(http.output, /FAILED at docs\/zz-snippets-test-\d+\.md:6/);
  assert.match(http.output, /curl exited 22: an HTTP error answer/);
});
