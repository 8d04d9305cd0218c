// Reading Prometheus exposition text in tests (GET /metrics).

const labelsOf = (s: string) => Object.fromEntries([...s.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));

/**
 * The value of the samples of `name` whose labels include `labels` (summed when several
 * match, e.g. a counter asked by route across its statuses); undefined when none does.
 */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  let sum: number | undefined;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = labelsOf(m[2] ?? '');
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) sum = (sum ?? 0) + Number(m[3]);
  }
  return sum;
}
