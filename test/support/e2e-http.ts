// Plain fetch helpers of the end-to-end tests against a started server: operator calls,
// API calls as a bearer, and the spec's upload headers.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';

export interface HttpAnswer {
  status: number;
  /** Parsed JSON, or the text when it is not JSON, or null when empty. */
  body: any;
  headers: Headers;
}

/** An /_operator call that must answer 200 (201 for what it creates); answers its JSON. */
export async function operatorCall(baseUrl: string, operatorToken: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${baseUrl}/_operator${path}`, {
    method,
    headers: { authorization: `Bearer ${operatorToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(res.status === 200 || res.status === 201, `${res.status}: ${text}`);
  return JSON.parse(text);
}

/** One API call as the bearer of `token` (JSON body when given). */
export async function bearerCall(
  baseUrl: string, token: string, method: string, path: string, body?: unknown, redirect: RequestRedirect = 'follow',
): Promise<HttpAnswer> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    redirect,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

export const md5 = (b: Uint8Array) => crypto.createHash('md5').update(b).digest();

/** The three headers of the spec's upload step 2. */
export const uploadHeaders = (b: Uint8Array) => ({
  'Content-MD5': md5(b).toString('base64'), 'Cache-Control': 'max-age=2592000', 'x-ms-blob-type': 'BlockBlob',
});
