// The node's fault rules (docs/sandbox.md "Fault rules"), SANDBOX only: a list kept in this
// node's memory (FAULTS_FILE loads one at start), changed at run time through the operator
// surface. `decide` is what the request hook calls: with no rule it answers at once.
import { DomainError, invalidInput } from '../../../core/errors.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import { ArmedRule, FAULT_LIMITS, parseFaultRule, type FaultEffect, type FaultRequest, type FaultRule } from './fault-rules.ts';

export interface FaultRuleView extends FaultRule {
  /** Requests the rule matched, and faults it injected, since it was added. */
  matched: number;
  injected: number;
}

export interface InjectedFault {
  ruleId: string;
  effect: FaultEffect;
  /** A delay rule's milliseconds for this request (drawn when the rule has a distribution). */
  delayMs?: number;
}

export interface Faults {
  /** True when the list holds a rule (the request hook's one test when it is empty). */
  readonly active: boolean;
  list(): FaultRuleView[];
  /** Adds one rule (checked; a refusal names the field); answers it with its id. */
  add(raw: unknown): FaultRuleView;
  /** Replaces the whole list (checked whole first: a bad rule leaves the list as it was). */
  replace(raw: unknown): FaultRuleView[];
  remove(id: string): { deleted: string };
  clear(): { deleted: number };
  /**
   * The fault this request meets, if any (the first matching rule that fires). Called before
   * the body (no grantType) for every request, and for POST /oauth/token once more with its
   * grant_type (only the refuse-refresh rules match then).
   */
  decide(r: FaultRequest): InjectedFault | null;
}

const view = (a: ArmedRule): FaultRuleView => ({ ...a.rule, matched: a.matched, injected: a.injected });

export function createFaults(deps: { ids: Ids; onInjected?: (f: InjectedFault) => void }): Faults {
  let armed: ArmedRule[] = [];
  const parseList = (raw: unknown): ArmedRule[] => {
    const rules = (raw as { rules?: unknown } | null)?.rules;
    if (!Array.isArray(rules)) throw invalidInput('Invalid body.rules: must be a list of rules', { field: 'body.rules', reason: 'must be a list of rules' });
    if (rules.length > FAULT_LIMITS.rules) throw invalidInput(`Invalid body.rules: at most ${FAULT_LIMITS.rules} rules`, { field: 'body.rules', reason: `at most ${FAULT_LIMITS.rules} rules` });
    return rules.map((r, i) => new ArmedRule(parseFaultRule(r, deps.ids.uuid(), `body.rules[${i}]`)));
  };
  return {
    get active() {
      return armed.length > 0;
    },
    list: () => armed.map(view),
    add(raw) {
      if (armed.length >= FAULT_LIMITS.rules) throw invalidInput(`At most ${FAULT_LIMITS.rules} fault rules`, { field: 'body', reason: `at most ${FAULT_LIMITS.rules} rules` });
      const rule = new ArmedRule(parseFaultRule(raw, deps.ids.uuid()));
      armed = [...armed, rule];
      return view(rule);
    },
    replace(raw) {
      armed = parseList(raw);
      return armed.map(view);
    },
    remove(id) {
      const next = armed.filter((a) => a.rule.id !== id);
      if (next.length === armed.length) throw new DomainError('not-found', 'fault-rule-not-found', `No fault rule ${String(id).slice(0, 64)}`, { id });
      armed = next;
      return { deleted: id };
    },
    clear() {
      const deleted = armed.length;
      armed = [];
      return { deleted };
    },
    decide(r) {
      for (const a of armed) {
        if (!a.matches(r) || !a.fires()) continue;
        const delayMs = a.delayMs();
        const f: InjectedFault = { ruleId: a.rule.id, effect: a.rule.effect, ...(delayMs === undefined ? {} : { delayMs }) };
        deps.onInjected?.(f);
        return f;
      }
      return null;
    },
  };
}
