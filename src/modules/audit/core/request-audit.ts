// One audited request (or admin command) while it runs: what its records say about who and
// what, and what the authorizer allowed (a DecisionLog: src/core/permissions/decisions.ts).
import type { AllowedDecision, DecisionLog } from '../../../core/permissions/decisions.ts';
import type { AuditSurface } from './ports.ts';

export class RequestAudit implements DecisionLog {
  readonly allowed: AllowedDecision[] = [];
  signedIn?: string;
  accountId?: string;
  oauthClient?: string;
  signInFailure?: string;
  /** Records written in the request's transactions so far. */
  recorded = 0;

  readonly facts: AuditFacts;

  constructor(facts: AuditFacts) {
    this.facts = facts;
  }
}

/** Who and what a request's records name. */
export interface AuditFacts {
  at: Date;
  surface: AuditSurface;
  operation: string;
  /** The path parameters, `name=value`. */
  targets: string[];
  ip: string | null;
  /**
   * Who called, read when a record is written (ports.ts AuditEntry.client): the OAuth client of
   * the access token, or the kind of credential; null: none.
   */
  client: () => string | null;
  requestId: string;
  /** The authenticated user, read when a record is written (the bearer check runs after the request is opened). */
  userId: () => string | null;
  /** Whether the request is a sign-in (its outcome says whether it signed someone in). */
  signIn: boolean;
}
