// A node:test reporter for scripts/test.mjs: one JSON line per file or test that starts
// (`dequeue`) or ends (`complete`), with the time, written to a file that the run reads so the run knows which files, and which test in each,
// are still running when it exceeds its budget (TEST_BUDGET_SECONDS).
export default async function* progress(source) {
  for await (const event of source) {
    if (event.type !== 'test:dequeue' && event.type !== 'test:complete') continue;
    const { file, name, nesting } = event.data;
    if (!file) continue;
    yield `${JSON.stringify({ event: event.type === 'test:dequeue' ? 'start' : 'end', file, name, nesting, at: Date.now() })}\n`;
  }
}
