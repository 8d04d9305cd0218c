// A unique constraint's refusal as the core knows it (UniqueViolation: the use case decides the 409).
import { UniqueViolation } from '../../../core/ports/repositories.ts';

/** Runs the statement; PostgreSQL's unique violation (23505) becomes UniqueViolation. */
export async function uniqueOr409<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    if ((e as { code?: string }).code === '23505') throw new UniqueViolation((e as Error).message);
    throw e;
  }
}
