// The shell snippets of the documentation (README.md, docs/*.md), as `npm run docs:snippets`
// runs them (scripts/doc-snippets.ts; the convention is in docs/architecture.md "Documentation
// that runs"). Pure: Markdown in, snippets and the Bash script of a document out.
//
// - A fenced block whose info string is `sh`, `bash` or `shell` is a snippet. It runs,
//   unless the last non-blank line before its fence is an annotation:
//   `<!-- snippet: skip (why) -->`: not run (a browser step, another machine, Docker…); the
//     reason is required, so that a skipped block says why it cannot run;
//   `<!-- snippet: server -->`: it starts the service (`npm start`): run in the background,
//     stopping the one a previous server block started, and waited for until /healthz answers.
// - A document's snippets run in order in one Bash process, as a reader types them into
//   one terminal: what one block sets, the next sees.

export type SnippetMode = 'run' | 'server' | 'skip';

export interface Snippet {
  file: string;
  /** The 1-based line of the opening fence. */
  line: number;
  mode: SnippetMode;
  /** Why a skipped snippet is not run. */
  reason?: string;
  text: string;
}

const SHELL = new Set(['sh', 'bash', 'shell']);
const ANNOTATION = /^<!--\s*snippet:\s*(.*?)\s*-->$/;

export class SnippetSyntaxError extends Error {}

function annotationOf(line: string | undefined, where: string): { mode: SnippetMode; reason?: string } {
  const m = line === undefined ? null : ANNOTATION.exec(line.trim());
  if (!m) return { mode: 'run' };
  const body = m[1]!;
  if (body === 'server') return { mode: 'server' };
  const skip = /^skip\s*\((.+)\)$/.exec(body);
  if (skip) return { mode: 'skip', reason: skip[1]! };
  throw new SnippetSyntaxError(`${where}: unknown snippet annotation "${body}" (expected "skip (why)" or "server")`);
}

/** The shell snippets of one Markdown document, in order. */
export function extractSnippets(markdown: string, file: string): Snippet[] {
  const lines = markdown.split('\n');
  const out: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    let end = i + 1;
    while (end < lines.length && !(lines[end]!.trim().startsWith(fence!) && lines[end]!.trim().replace(/[`~]/g, '') === '')) end++;
    if (end >= lines.length) throw new SnippetSyntaxError(`${file}:${i + 1}: a fenced block that never closes`);
    if (SHELL.has(lang!)) {
      let before = i - 1;
      while (before >= 0 && lines[before]!.trim() === '') before--;
      const where = `${file}:${i + 1}`;
      const text = lines.slice(i + 1, end).map((l) => (l.startsWith(indent!) ? l.slice(indent!.length) : l)).join('\n');
      out.push({ file, line: i + 1, ...annotationOf(before >= 0 ? lines[before] : undefined, where), text });
    }
    i = end;
  }
  return out;
}

/** The documented address (`localhost:8080`, `127.0.0.1:8080`) moved to the port the run uses. */
export const onPort = (text: string, port: number): string =>
  text.replace(/\b(localhost|127\.0\.0\.1):8080\b/g, `$1:${port}`);

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The Bash script running a document's snippets: strict mode, `curl` failing on an HTTP
 * error answer (`--fail-with-body`: the body is still printed), each block announced in
 * `$SNIPPET_STATE/current` (which block failed), server blocks through `snippet_server`.
 * The functions it calls (`snippet_server`, `snippet_stop_server`) are in the runner's prelude.
 */
export function scriptOf(snippets: readonly Snippet[], port: number): string {
  const parts = [
    'set -euo pipefail',
    'curl() { local rc=0; command curl --fail-with-body "$@" || rc=$?; [ "$rc" -eq 0 ] || echo "(curl exited $rc$([ "$rc" -eq 22 ] && echo \': an HTTP error answer\'))" >&2; return "$rc"; }',
    'trap snippet_stop_server EXIT',
  ];
  for (const s of snippets) {
    if (s.mode === 'skip') continue;
    const where = `${s.file}:${s.line}`;
    parts.push(`printf '%s\\n' ${quote(where)} > "$SNIPPET_STATE/current"`);
    parts.push(`printf '\\n$ # %s\\n' ${quote(where)}`);
    const text = onPort(s.text, port);
    if (s.mode === 'server') parts.push(`snippet_server ${quote(text)}`);
    else parts.push(text);
  }
  parts.push(`printf '%s\\n' done > "$SNIPPET_STATE/current"`);
  return `${parts.join('\n')}\n`;
}
