// What commands print: with --json the service's JSON as it came (one document); else a
// table (cli-table3) of the columns that matter, or `key  value` lines for one object.
import Table from 'cli-table3';

export interface Printer {
  json: boolean;
  /** A list (table) or one object (key/value lines); `columns` picks and orders the table's columns. */
  result(value: unknown, columns?: readonly string[]): void;
  /** A line for people (skipped with --json). */
  note(line: string): void;
}

const cell = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
};

export function printer(json: boolean, out: NodeJS.WritableStream = process.stdout): Printer {
  const write = (s: string) => out.write(s.endsWith('\n') ? s : `${s}\n`);
  return {
    json,
    result(value, columns) {
      if (json) return void write(JSON.stringify(value ?? null, null, 2));
      if (Array.isArray(value)) {
        const rows = value as Record<string, unknown>[];
        const present = new Set(rows.flatMap((r) => (r && typeof r === 'object' ? Object.keys(r) : [])));
        const cols = (columns ?? [...present]).filter((c) => present.has(c));
        if (!rows.length) return void write('(none)');
        const table = new Table({ head: cols, style: { head: [], border: [] } });
        for (const r of rows) table.push(cols.map((c) => cell(r[c])));
        return void write(table.toString());
      }
      if (value && typeof value === 'object') {
        const entries = Object.entries(value as Record<string, unknown>);
        const width = Math.max(...entries.map(([k]) => k.length));
        return void write(entries.map(([k, v]) => `${k.padEnd(width)}  ${cell(v)}`).join('\n'));
      }
      if (value !== undefined && value !== null) write(String(value));
    },
    note(line) {
      if (!json) write(line);
    },
  };
}
