// A token as the integrations module keeps it (docs/integrations.md "Tokens at rest").
import { looksSealed, type SecretBox } from '../../../core/crypto/secret-box.ts';

/**
 * The token a stored value holds: sealed since migration 0039's release; a row written before
 * holds it as given (the sealing task seals it), and is read as it is.
 */
export const openStoredToken = (secrets: SecretBox, stored: string): Promise<string> =>
  (looksSealed(stored) ? secrets.open(stored) : Promise.resolve(stored));
