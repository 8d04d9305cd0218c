import crypto from 'node:crypto';
import type { Ids } from '../../core/ports/ids.ts';

export const randomIds: Ids = {
  uuid: () => crypto.randomUUID(),
  secret: (bytes = 32) => crypto.randomBytes(bytes).toString('base64url'),
};
