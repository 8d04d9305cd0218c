// The sandbox's fault rules, pure (src/modules/sandbox/core/fault-rules.ts): a delay drawn from
// a distribution with the rule's seed (the same seed, the same delays; clamped to 0..delayMsMax),
// a window on the service's clock outside which the rule matches nothing, the slow body's rate,
// and refuse-refresh matching only POST /oauth/token with grant_type=refresh_token.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArmedRule, FAULT_LIMITS, delayOf, inWindow, parseFaultRule, seededRandom, type FaultRequest } from '../../src/modules/sandbox/core/fault-rules.ts';
import { DomainError } from '../../src/core/errors.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const request = (over: Partial<FaultRequest> = {}): FaultRequest => ({
  method: 'GET', path: '/api/2/accounts', operationId: 'getAccounts', user: 'u1', account: undefined, surface: 'api2', nowMs: NOW, ...over,
});
const refusedField = (raw: unknown): string => {
  try {
    parseFaultRule(raw, 'r');
  } catch (e) {
    assert.ok(e instanceof DomainError);
    return String(e.values?.field);
  }
  assert.fail(`accepted ${JSON.stringify(raw)}`);
};
const delays = (raw: unknown, n: number) => {
  const armed = new ArmedRule(parseFaultRule(raw, 'r'));
  return Array.from({ length: n }, () => (armed.fires(), armed.delayMs()!));
};

test('a uniform delay is drawn within minMs..maxMs from the rule\'s seed: the same seed, the same delays', () => {
  const rule = { effect: { kind: 'delay', distribution: { type: 'uniform', minMs: 100, maxMs: 300 } }, seed: 9 };
  const a = delays(rule, 50);
  assert.deepEqual(delays(rule, 50), a);
  assert.notDeepEqual(delays({ ...rule, seed: 10 }, 50), a);
  assert.ok(a.every((ms) => ms >= 100 && ms <= 300 && Number.isInteger(ms)), a.join());
  assert.ok(new Set(a).size > 10, 'drawn, not fixed');
});

test('a normal delay centres on meanMs with stdDevMs spread, clamped to 0..delayMsMax', () => {
  const a = delays({ effect: { kind: 'delay', distribution: { type: 'normal', meanMs: 1000, stdDevMs: 100 } }, seed: 3 }, 2000);
  const mean = a.reduce((s, x) => s + x, 0) / a.length;
  const sd = Math.sqrt(a.reduce((s, x) => s + (x - mean) ** 2, 0) / a.length);
  assert.ok(Math.abs(mean - 1000) < 15, `mean ${mean}`);
  assert.ok(Math.abs(sd - 100) < 10, `sd ${sd}`);
  const low = delayOf({ kind: 'delay', distribution: { type: 'normal', meanMs: 0, stdDevMs: 50_000 } }, seededRandom(1));
  const many = Array.from({ length: 200 }, (_, i) => delayOf({ kind: 'delay', distribution: { type: 'normal', meanMs: FAULT_LIMITS.delayMsMax, stdDevMs: 50_000 } }, seededRandom(i)));
  assert.ok(low >= 0);
  assert.ok(many.every((ms) => ms >= 0 && ms <= FAULT_LIMITS.delayMsMax));
  assert.ok(many.includes(FAULT_LIMITS.delayMsMax), 'clamped at the top');
  assert.equal(delayOf({ kind: 'delay', ms: 250 }, () => assert.fail('a fixed delay draws nothing')), 250);
});

test('a delay rule is ms or a distribution; a bad distribution is refused naming the field', () => {
  assert.equal(refusedField({ effect: { kind: 'delay', ms: 5, distribution: { type: 'uniform', minMs: 1, maxMs: 2 } } }), 'body.effect.ms');
  assert.equal(refusedField({ effect: { kind: 'delay', distribution: { type: 'pareto' } } }), 'body.effect.distribution.type');
  assert.equal(refusedField({ effect: { kind: 'delay', distribution: { type: 'uniform', minMs: 5, maxMs: 2 } } }), 'body.effect.distribution.maxMs');
  assert.equal(refusedField({ effect: { kind: 'delay', distribution: { type: 'uniform', minMs: 5 } } }), 'body.effect.distribution.maxMs');
  assert.equal(refusedField({ effect: { kind: 'delay', distribution: { type: 'normal', meanMs: 5, stdDevMs: -1 } } }), 'body.effect.distribution.stdDevMs');
  assert.equal(refusedField({ effect: { kind: 'delay', distribution: { type: 'normal', meanMs: 5, stdDevMs: 1, minMs: 0 } } }), 'body.effect.distribution.minMs');
  assert.equal(refusedField({ effect: { kind: 'delay', distribution: { type: 'uniform', minMs: 0, maxMs: FAULT_LIMITS.delayMsMax + 1 } } }), 'body.effect.distribution.maxMs');
});

test('a window matches from its start (inclusive) to its end (exclusive) on the clock given, and nothing outside', () => {
  const w = { from: '2026-03-01T12:00:00Z', until: '2026-03-01T12:05:00Z' };
  assert.equal(inWindow(w, NOW - 1), false);
  assert.equal(inWindow(w, NOW), true);
  assert.equal(inWindow(w, NOW + 299_999), true);
  assert.equal(inWindow(w, NOW + 300_000), false);
  assert.equal(inWindow({ until: w.until }, 0), true);
  assert.equal(inWindow({ from: w.from }, NOW + 1e12), true);
  const armed = new ArmedRule(parseFaultRule({ effect: { kind: 'status', status: 503 }, window: w }, 'r'));
  assert.equal(armed.matches(request({ nowMs: NOW - 1000 })), false);
  assert.equal(armed.matches(request({ nowMs: NOW + 1000 })), true);
  assert.equal(armed.matches(request({ nowMs: NOW + 600_000 })), false);
});

test('a bad window is refused naming the field', () => {
  assert.equal(refusedField({ effect: { kind: 'drop' }, window: {} }), 'body.window');
  assert.equal(refusedField({ effect: { kind: 'drop' }, window: { from: 'tomorrow' } }), 'body.window.from');
  assert.equal(refusedField({ effect: { kind: 'drop' }, window: { from: '2026-03-01T12:00:00Z', until: '2026-03-01T11:00:00Z' } }), 'body.window.until');
  assert.equal(refusedField({ effect: { kind: 'drop' }, window: { from: '2026-03-01T12:00:00Z', to: 'x' } }), 'body.window.to');
});

test('a slow body (an answer\'s or a request\'s) needs a rate of 1 byte to bytesPerSecondMax per second', () => {
  for (const kind of ['slow-body', 'slow-request-body']) {
    assert.deepEqual(parseFaultRule({ effect: { kind, bytesPerSecond: 1024 } }, 'r').effect, { kind, bytesPerSecond: 1024 });
    assert.equal(refusedField({ effect: { kind } }), 'body.effect.bytesPerSecond');
    assert.equal(refusedField({ effect: { kind, bytesPerSecond: 0 } }), 'body.effect.bytesPerSecond');
    assert.equal(refusedField({ effect: { kind, bytesPerSecond: FAULT_LIMITS.bytesPerSecondMax + 1 } }), 'body.effect.bytesPerSecond');
    assert.equal(refusedField({ effect: { kind, bytesPerSecond: 10, ms: 5 } }), 'body.effect.ms');
  }
});

test('refuse-refresh matches only POST /oauth/token with grant_type=refresh_token (its client when named); other kinds never match with the body', () => {
  const refuse = new ArmedRule(parseFaultRule({ match: { client: 'app-1' }, effect: { kind: 'refuse-refresh' } }, 'r'));
  const token = request({ method: 'POST', path: '/oauth/token', operationId: 'token', surface: 'oauth', user: undefined });
  assert.equal(refuse.matches(token), false, 'before the body: no grant_type yet');
  assert.equal(refuse.matches({ ...token, grantType: 'refresh_token', client: 'app-1' }), true);
  assert.equal(refuse.matches({ ...token, grantType: 'refresh_token', client: 'app-2' }), false, 'another client');
  assert.equal(refuse.matches({ ...token, grantType: 'authorization_code', client: 'app-1' }), false, 'a code exchange');
  assert.equal(refuse.matches({ ...token, path: '/oauth/other', grantType: 'refresh_token', client: 'app-1' }), false);
  const any = new ArmedRule(parseFaultRule({ effect: { kind: 'refuse-refresh' } }, 'r'));
  assert.equal(any.matches({ ...token, grantType: 'refresh_token' }), true);
  const status = new ArmedRule(parseFaultRule({ effect: { kind: 'status' } }, 'r'));
  assert.equal(status.matches(token), true);
  assert.equal(status.matches({ ...token, grantType: 'refresh_token' }), false, 'decided once, before the body');
  assert.equal(refusedField({ effect: { kind: 'refuse-refresh', status: 400 } }), 'body.effect.status');
});

test('a journal follower gets each new entry matching its filters, the retained ones after its cursor first, until it unsubscribes', async () => {
  const { createJournal } = await import('../../src/modules/sandbox/core/journal.ts');
  const journal = createJournal({ size: 5 });
  const entry = (status: number) => ({
    at: new Date(NOW).toISOString(), method: 'GET', path: '/api/isLogged', operationId: 'isLogged', surface: 'api1' as const,
    user: null, status, durationMs: 1, errorCode: null, detail: null, refusal: null, fault: null,
  });
  for (const s of [200, 401, 200, 403]) journal.record(entry(s));
  const seen: number[] = [];
  const { last, unsubscribe } = journal.subscribe({ status: '4xx', after: 1 }, (e) => seen.push(e.seq));
  assert.equal(last, 4);
  assert.deepEqual(seen, [2, 4], 'the retained refusals after seq 1');
  journal.record(entry(200));
  journal.record(entry(429));
  assert.deepEqual(seen, [2, 4, 6]);
  unsubscribe();
  journal.record(entry(500));
  assert.deepEqual(seen, [2, 4, 6]);
});
