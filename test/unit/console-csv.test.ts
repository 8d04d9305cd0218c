// The console's CSV export of the reports (console/src/csv.ts): RFC 4180 quoting, CRLF, and
// names that would run as spreadsheet formulas kept as text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toCsv } from '../../console/src/csv.ts';

test('console CSV: fields with commas, quotes or line breaks are quoted (quotes doubled); rows end in CRLF; empty for null', () => {
  assert.equal(
    toCsv(['name', 'date'], [['Plant, north', null], ['The "big" one', '2026-11-25'], ['two\nlines', 3]]),
    'name,date\r\n"Plant, north",\r\n"The ""big"" one",2026-11-25\r\n"two\nlines",3\r\n',
  );
});

test('console CSV: a text starting with = + - @ is kept as text (leading apostrophe); numbers are not touched', () => {
  assert.equal(toCsv(['v'], [['=HYPERLINK("x")'], ['+1'], ['@SUM(A1)'], ['-2'], [-2]]), 'v\r\n"\'=HYPERLINK(""x"")"\r\n\'+1\r\n\'@SUM(A1)\r\n\'-2\r\n-2\r\n');
});
