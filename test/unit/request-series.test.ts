// The HTTP request series written by hand (src/adapters/telemetry/request-series.ts): they
// must read as Prometheus text format 0.0.4, as prom-client's own histogram would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequestSeries } from '../../src/adapters/telemetry/request-series.ts';

const names = {
  count: { name: 'x_requests_total', help: 'Requests' },
  duration: { name: 'x_duration_seconds', help: 'Durations' },
};

const lines = (text: string, prefix: string) => text.split('\n').filter((l) => l.startsWith(prefix));

test('each method, route and status is its own series, counted', () => {
  const s = createRequestSeries(names, [0.1, 1]);
  s.observe('GET', '/a/:id', 200, 0.05);
  s.observe('GET', '/a/:id', 200, 0.05);
  s.observe('GET', '/a/:id', 404, 0.05);
  s.observe('POST', '/a/:id', 200, 0.05);
  assert.deepEqual(lines(s.text(), 'x_requests_total'), [
    'x_requests_total{method="GET",route="/a/:id",status="200"} 2',
    'x_requests_total{method="GET",route="/a/:id",status="404"} 1',
    'x_requests_total{method="POST",route="/a/:id",status="200"} 1',
  ]);
});

test('histogram buckets are cumulative, le is an upper bound included, +Inf equals the count', () => {
  const s = createRequestSeries(names, [1, 0.1]); // unsorted bounds are sorted
  for (const v of [0.1, 0.5, 1, 3]) s.observe('GET', '/r', 200, v);
  const text = s.text();
  assert.deepEqual(lines(text, 'x_duration_seconds_bucket'), [
    'x_duration_seconds_bucket{le="0.1",method="GET",route="/r",status="200"} 1',
    'x_duration_seconds_bucket{le="1",method="GET",route="/r",status="200"} 3',
    'x_duration_seconds_bucket{le="+Inf",method="GET",route="/r",status="200"} 4',
  ]);
  assert.deepEqual(lines(text, 'x_duration_seconds_sum'), ['x_duration_seconds_sum{method="GET",route="/r",status="200"} 4.6']);
  assert.deepEqual(lines(text, 'x_duration_seconds_count'), ['x_duration_seconds_count{method="GET",route="/r",status="200"} 4']);
});

test('HELP and TYPE lines come first, once per metric, even with no sample', () => {
  const text = createRequestSeries(names, [1]).text();
  assert.deepEqual(lines(text, '#'), [
    '# HELP x_requests_total Requests',
    '# TYPE x_requests_total counter',
    '# HELP x_duration_seconds Durations',
    '# TYPE x_duration_seconds histogram',
  ]);
});

test('label values are escaped (backslash, double quote, line feed)', () => {
  const s = createRequestSeries(names, [1]);
  s.observe('GET', '/a"b\\c\nd', 200, 0);
  assert.deepEqual(lines(s.text(), 'x_requests_total{'), ['x_requests_total{method="GET",route="/a\\"b\\\\c\\nd",status="200"} 1']);
});
