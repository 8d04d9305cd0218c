// The HTTP request count and duration series, kept by hand instead of in prom-client
// metrics: prom-client hashes a label object on every inc/observe (even through a bound
// child), a cost that showed on the per-request CPU of the cheapest requests of `npm run
// bench` (GET /api/isLogged). Here one observation is three Map lookups on strings that
// already exist (method, route pattern) and a number (status), then a few additions; the
// exposition text is written at scrape time in Prometheus text format 0.0.4
// (https://prometheus.io/docs/instrumenting/exposition_formats/): a counter `<count>` and a
// histogram `<duration>` with cumulative `le` buckets, `_sum` and `_count`.

interface Series {
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative); the last slot is +Inf. */
  buckets: number[];
}

export interface RequestSeriesNames {
  count: { name: string; help: string };
  duration: { name: string; help: string };
}

export interface RequestSeries {
  observe(method: string, route: string, status: number, seconds: number): void;
  /** Both metrics in exposition format, each with its HELP and TYPE lines. */
  text(): string;
}

/** Label values escaped as the text format requires (backslash, double quote, line feed). */
const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** Numbers as Prometheus writes them (+Inf, no exponent surprises for integers). */
const num = (v: number) => (v === Infinity ? '+Inf' : String(v));

export function createRequestSeries(names: RequestSeriesNames, bounds: readonly number[]): RequestSeries {
  const sorted = [...bounds].sort((a, b) => a - b);
  // route → method → status → series
  const byRoute = new Map<string, Map<string, Map<number, Series>>>();

  function seriesOf(method: string, route: string, status: number): Series {
    let byMethod = byRoute.get(route);
    if (byMethod === undefined) byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) byMethod.set(method, (byStatus = new Map()));
    let s = byStatus.get(status);
    if (s === undefined) byStatus.set(status, (s = { count: 0, sum: 0, buckets: new Array<number>(sorted.length + 1).fill(0) }));
    return s;
  }

  return {
    observe(method, route, status, seconds) {
      const s = seriesOf(method, route, status);
      s.count++;
      s.sum += seconds;
      let i = 0;
      while (i < sorted.length && seconds > sorted[i]!) i++;
      s.buckets[i]!++;
    },

    text() {
      const counts: string[] = [`# HELP ${names.count.name} ${names.count.help}`, `# TYPE ${names.count.name} counter`];
      const durations: string[] = [`# HELP ${names.duration.name} ${names.duration.help}`, `# TYPE ${names.duration.name} histogram`];
      const d = names.duration.name;
      for (const [route, byMethod] of byRoute) {
        for (const [method, byStatus] of byMethod) {
          for (const [status, s] of byStatus) {
            const labels = `method="${escapeLabel(method)}",route="${escapeLabel(route)}",status="${status}"`;
            counts.push(`${names.count.name}{${labels}} ${s.count}`);
            let cumulative = 0;
            for (let i = 0; i <= sorted.length; i++) {
              cumulative += s.buckets[i]!;
              durations.push(`${d}_bucket{le="${num(i < sorted.length ? sorted[i]! : Infinity)}",${labels}} ${cumulative}`);
            }
            durations.push(`${d}_sum{${labels}} ${s.sum}`, `${d}_count{${labels}} ${s.count}`);
          }
        }
      }
      return `${counts.join('\n')}\n\n${durations.join('\n')}\n`;
    },
  };
}
