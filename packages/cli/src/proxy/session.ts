// A recorded session on disk (docs/sandbox.md "The session directory"):
//
//   DIR/session.json          format, version, the target, the proxy's address, the
//                             principals (who each bearer token placeholder is) and the
//                             recorded users' e-mail placeholders
//   DIR/exchanges.ndjson      one exchange per line: seq (request order), times, the
//                             request and the answer, redacted
//   DIR/bodies/<sha256>       request bodies that are not text (file bytes), for the replay
import fs from 'node:fs';
import path from 'node:path';

export const SESSION_FORMAT = 'scanbase-proxy-session';
export const SESSION_VERSION = 1;
export const SESSION_FILE = 'session.json';
export const EXCHANGES_FILE = 'exchanges.ndjson';
export const BODIES_DIR = 'bodies';

/** A body as recorded: JSON, a form, text (redacted), or bytes (size and digest; request bytes kept in bodies/). */
export type RecordedBody =
  | { kind: 'none' }
  | { kind: 'json'; json: unknown }
  | { kind: 'form'; form: Record<string, string> }
  | { kind: 'text'; text: string; truncated?: boolean }
  | { kind: 'binary'; bytes: number; sha256: string; file?: string };

export interface RecordedMessage {
  headers: Record<string, string | string[]>;
  body: RecordedBody;
}

export interface Exchange {
  seq: number;
  startedAt: string;
  durationMs: number;
  request: RecordedMessage & { method: string; path: string };
  /** null: the target did not answer (`error` says why). */
  response: (RecordedMessage & { status: number }) | null;
  error?: string;
}

export interface Principal {
  /** The user the token belongs to (the token answer's user_id, or the JWT's sub), when known. */
  userId: string | null;
  /** How it was used: an access token (sent as a bearer) or a refresh token. */
  use: 'access' | 'refresh';
}

export interface SessionInfo {
  format: typeof SESSION_FORMAT;
  version: number;
  target: string;
  /** The proxy's own address: URLs in recorded answers that pointed at the target point here. */
  proxyOrigin: string;
  startedAt: string;
  /** Bearer token placeholders → who they belong to. */
  principals: Record<string, Principal>;
  /** Recorded user ids → the placeholder of their e-mail (from answers that show both). */
  users: Record<string, { email: string }>;
}

export function readSession(dir: string): { info: SessionInfo; exchanges: Exchange[] } {
  const infoFile = path.join(dir, SESSION_FILE);
  if (!fs.existsSync(infoFile)) throw new Error(`${dir} holds no recorded session (no ${SESSION_FILE})`);
  const info = JSON.parse(fs.readFileSync(infoFile, 'utf8')) as SessionInfo;
  if (info.format !== SESSION_FORMAT || !(info.version >= 1 && info.version <= SESSION_VERSION)) {
    throw new Error(`${infoFile}: format ${info.format} version ${info.version}; this command reads ${SESSION_FORMAT} 1 to ${SESSION_VERSION}`);
  }
  const file = path.join(dir, EXCHANGES_FILE);
  const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  const exchanges = lines.map((l, i) => {
    try {
      return JSON.parse(l) as Exchange;
    } catch (e) {
      throw new Error(`${file}:${i + 1}: not JSON (${(e as Error).message})`, { cause: e });
    }
  });
  return { info, exchanges: exchanges.sort((a, b) => a.seq - b.seq) };
}
