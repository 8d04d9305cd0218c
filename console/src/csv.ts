// CSV for the reports' export (RFC 4180): comma-separated, CRLF line ends, a field quoted
// when it holds a comma, a quote or a line break (quotes doubled). A field starting with
// = + - @ (or a tab or carriage return) gets a leading apostrophe, so a spreadsheet opening
// the file shows a user-chosen name as text instead of running it as a formula (CWE-1236).
export type Cell = string | number | boolean | null | undefined;

function field(v: Cell): string {
  let s = v === null || v === undefined ? '' : String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return [header, ...rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}
