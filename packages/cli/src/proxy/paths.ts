// A request path with its query, rewritten piece by piece: each path segment (decoded, then
// encoded again only when it changed, keeping ":" and "@" as they are) and each query
// parameter by its name. The redaction (redact.ts) and the replay's id map (replay.ts) both
// rewrite paths this way.

const encodeSegment = (s: string) => encodeURIComponent(s).replace(/%3A/gi, ':').replace(/%40/g, '@');

export function mapPathAndQuery(pathAndQuery: string, segment: (decoded: string) => string, param: (key: string, value: string) => string): string {
  const q = pathAndQuery.indexOf('?');
  const segments = (q < 0 ? pathAndQuery : pathAndQuery.slice(0, q)).split('/').map((seg) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(seg);
    } catch {
      decoded = seg; // not percent-encoded as it should be: taken as it is
    }
    const mapped = segment(decoded);
    return mapped === decoded ? seg : encodeSegment(mapped);
  });
  if (q < 0) return segments.join('/');
  const out = new URLSearchParams();
  for (const [k, v] of new URLSearchParams(pathAndQuery.slice(q + 1))) out.append(k, param(k, v));
  return `${segments.join('/')}?${out.toString()}`;
}
