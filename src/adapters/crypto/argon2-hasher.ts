// Passwords: argon2id (memory-hard), parameters per OWASP's minimum recommendation.
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import type { PasswordHasher } from '../../core/ports/crypto.ts';

// Algorithm.Argon2id is an ambient const enum, which Node's type stripping cannot inline: its value.
const ARGON2ID = 2 satisfies Algorithm.Argon2id;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const argon2Hasher: PasswordHasher = {
  hash: (password) => hash(password, OPTIONS),
  async verify(stored, password) {
    try {
      return await verify(stored, password);
    } catch {
      return false;
    }
  },
};
