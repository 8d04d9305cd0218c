// How the core turns a third party's state into the API's answers: not configured or not
// answering is the vendor's 503 "Service Unavailable" (`integration-unavailable`, naming the
// integration), never a made-up success; a refusal of what the caller gave is theirs to fix (400).
import { DomainError } from '../../../core/errors.ts';
import { ThirdPartyError } from './ports.ts';
import './errors.ts';

export type ThirdParty = 'NEWFORMA_KONEKT' | 'AUTODESK';

export const unavailable = (integration: ThirdParty, why: string) =>
  new DomainError('unavailable', 'integration-unavailable', `The ${integration} integration is not available: ${why}`, { integration });

/** The client, or the 503 when this deployment has none configured. */
export function configured<T>(client: T | null, integration: ThirdParty): T {
  if (!client) throw unavailable(integration, 'this service is not configured for it (docs/integrations.md)');
  return client;
}

/** Runs a call to the third party: its unavailability is the 503, its refusal `refused()`. */
export async function callThirdParty<T>(integration: ThirdParty, call: () => Promise<T>, refused: (message: string) => Error): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof ThirdPartyError) throw e.reason === 'refused' ? refused(e.message) : unavailable(integration, e.message);
    throw e;
  }
}
