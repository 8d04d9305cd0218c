// One JSON request to a third party, bounded in time: a network failure, a timeout, a 5xx or
// an unreadable answer is ThirdPartyError 'unavailable'; a 400, 401 or 403 is 'refused'.
import { ThirdPartyError } from '../core/ports.ts';

export async function requestJson(url: string, init: RequestInit, timeoutSeconds: number): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutSeconds * 1000) });
  } catch (e) {
    const why = e instanceof Error && e.name === 'TimeoutError' ? 'no answer in time' : 'it could not be reached';
    throw new ThirdPartyError('unavailable', `${new URL(url).host}: ${why}`);
  }
  const text = await res.text().catch(() => '');
  if (res.status === 400 || res.status === 401 || res.status === 403) throw new ThirdPartyError('refused', `${new URL(url).host} answered ${res.status}`);
  if (!res.ok) throw new ThirdPartyError('unavailable', `${new URL(url).host} answered ${res.status}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ThirdPartyError('unavailable', `${new URL(url).host} answered something other than JSON`);
  }
}

/** A field of a third party's JSON answer, checked: a missing or mistyped one makes the answer unusable. */
export function field<T extends 'string' | 'number' | 'boolean' | 'object'>(v: unknown, key: string, type: T):
  T extends 'string' ? string : T extends 'number' ? number : T extends 'boolean' ? boolean : Record<string, unknown> {
  const value = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
  if (typeof value !== type || value === null) throw new ThirdPartyError('unavailable', `the answer has no ${type} "${key}"`);
  return value as never;
}

export function list(v: unknown, key: string): unknown[] {
  const value = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
  if (!Array.isArray(value)) throw new ThirdPartyError('unavailable', `the answer has no list "${key}"`);
  return value;
}

export function optionalString(v: unknown, key: string): string | null {
  const value = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? value : null;
}

/** The `id` of a created thing, a string or a number (third parties use both): as a string. */
export function idOf(v: unknown): string {
  const value = v !== null && typeof v === 'object' ? (v as Record<string, unknown>).id : undefined;
  if ((typeof value !== 'string' || !value) && (typeof value !== 'number' || !Number.isFinite(value))) {
    throw new ThirdPartyError('unavailable', 'the answer has no "id"');
  }
  return String(value);
}
