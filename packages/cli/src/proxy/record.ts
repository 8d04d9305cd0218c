// `scanbase proxy --target URL --record DIR`: an HTTP/1.1 forward proxy in front of one
// service (docs/sandbox.md "The recording proxy"). Every request, of any method, is sent on
// to the target's origin as it came (bodies streamed both ways), and each exchange is written
// to DIR redacted (redact.ts, session.ts). Answers that are text (JSON, forms, HTML…) are
// read whole so that addresses of the target in them (signed upload and download URLs,
// Location) can point at the proxy instead: the client then sends those requests through
// the proxy too, and they are recorded. File bytes pass through unread but for a digest;
// request bytes are kept in DIR/bodies for the replay.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Redactor } from './redact.ts';
import {
  BODIES_DIR, EXCHANGES_FILE, SESSION_FILE, SESSION_FORMAT, SESSION_VERSION, type Exchange, type RecordedBody, type SessionInfo,
} from './session.ts';

/** Hop-by-hop headers (RFC 9110 §7.6.1) are the proxy's own, never forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
/** Text answers longer than this pass through like file bytes (unread, not rewritten). */
const MAX_TEXT_BYTES = 64 * 1024 * 1024;

type BodyClass = 'json' | 'form' | 'text' | 'binary';
export function classOf(contentType: string | undefined): BodyClass {
  const ct = (contentType ?? '').toLowerCase();
  if (/[/+]json\b/.test(ct)) return 'json';
  if (ct.startsWith('application/x-www-form-urlencoded')) return 'form';
  if (ct.startsWith('text/') || /\/(xml|javascript)\b|\+xml\b/.test(ct)) return 'text';
  return 'binary';
}

const headerRecord = (h: http.IncomingHttpHeaders) => {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  return out;
};

/** The `sub` of a JWT, if the token is one (never verified: only who it names). */
function jwtSubject(token: string): string | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof claims.sub === 'string' ? claims.sub : null;
  } catch {
    return null; // not a JWT: an opaque token
  }
}

export interface RecorderOptions {
  target: string;
  dir: string;
  port: number;
  host: string;
  /** Where to keep placeholder → value of the personal data met (never the secrets); none when unset. */
  keysFile?: string;
}

export interface Recorder {
  url: string;
  /** Exchanges written so far. */
  count(): number;
  close(): Promise<void>;
}

async function writeAtomically(file: string, text: string): Promise<void> {
  const tmp = `${file}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  await fsp.writeFile(tmp, text, { mode: 0o600 });
  await fsp.rename(tmp, file);
}

export async function startRecorder(o: RecorderOptions): Promise<Recorder> {
  const target = new URL(o.target);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`--target ${o.target}: an http(s) URL`);
  await fsp.mkdir(path.join(o.dir, BODIES_DIR), { recursive: true });
  const exchangesFile = path.join(o.dir, EXCHANGES_FILE);
  if (fs.existsSync(exchangesFile) && fs.statSync(exchangesFile).size > 0) throw new Error(`${o.dir} already holds a recorded session: record into a new directory`);
  const redactor = new Redactor();
  const agent = target.protocol === 'https:' ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const send = target.protocol === 'https:' ? https.request : http.request;
  let seq = 0;
  let written = 0;
  // The proxy's own address is known once it listens.
  const info: SessionInfo = { format: SESSION_FORMAT, version: SESSION_VERSION, target: target.href, proxyOrigin: '', startedAt: new Date().toISOString(), principals: {}, users: {} };
  // Exchanges, the session description and the key file are written one after the other.
  let writes: Promise<unknown> = Promise.resolve();
  const queue = (fn: () => Promise<void>) => {
    const next = writes.then(fn);
    writes = next.catch((e: unknown) => process.stderr.write(`scanbase proxy: recording failed: ${(e as Error).message}\n`));
    return next;
  };

  const learn = (ex: Exchange, rawAuth: string | undefined, rawResponse: unknown, requestForm: Record<string, string> | null) => {
    const bearer = rawAuth && /^Bearer\s+(\S+)$/i.exec(rawAuth)?.[1];
    if (bearer) {
      const p = redactor.placeholder('token', bearer);
      info.principals[p] ??= { userId: jwtSubject(bearer), use: 'access' };
    }
    const r = rawResponse as Record<string, unknown> | null;
    if (r && typeof r === 'object' && !Array.isArray(r) && typeof r.access_token === 'string') {
      const fromRefresh = requestForm?.refresh_token ? info.principals[redactor.placeholder('token', requestForm.refresh_token)]?.userId : null;
      const userId = (typeof r.user_id === 'string' ? r.user_id : null) ?? jwtSubject(r.access_token) ?? fromRefresh ?? null;
      // The refresh token spent (obtained before the session, from a stored profile) is this user's too.
      if (requestForm?.refresh_token) info.principals[redactor.placeholder('token', requestForm.refresh_token)] = { userId, use: 'refresh' };
      for (const k of ['access_token', 'refresh_token'] as const) {
        if (typeof r[k] === 'string') info.principals[redactor.placeholder('token', r[k] as string)] = { userId, use: k === 'access_token' ? 'access' : 'refresh' };
      }
    }
    const walk = (v: unknown) => {
      if (Array.isArray(v)) return v.forEach(walk);
      if (!v || typeof v !== 'object') return;
      const obj = v as Record<string, unknown>;
      if (typeof obj.id === 'string' && typeof obj.email === 'string') info.users[obj.id] = { email: redactor.placeholder('email', obj.email) };
      Object.values(obj).forEach(walk);
    };
    walk(rawResponse);
    return ex;
  };

  const server = http.createServer((req, res) => {
    const n = ++seq;
    const started = Date.now();
    const startedAt = new Date(started).toISOString();
    const proxyOrigin = info.proxyOrigin;
    const reqClass = classOf(req.headers['content-type']);
    const reqChunks: Buffer[] = [];
    let reqBytes = 0;
    const reqHash = crypto.createHash('sha256');
    let reqFile: { tmp: string; stream: fs.WriteStream } | null = null;
    const textualRequest = reqClass !== 'binary';
    const tapRequest = new Transform({
      transform(chunk: Buffer, _enc, done) {
        reqBytes += chunk.length;
        reqHash.update(chunk);
        if (textualRequest && reqBytes <= MAX_TEXT_BYTES) reqChunks.push(chunk);
        else {
          if (!reqFile) {
            const tmp = path.join(o.dir, BODIES_DIR, `.upload-${n}-${crypto.randomBytes(4).toString('hex')}.tmp`);
            reqFile = { tmp, stream: fs.createWriteStream(tmp, { mode: 0o600 }) };
            for (const c of reqChunks.splice(0)) reqFile.stream.write(c);
          }
          if (!reqFile.stream.write(chunk)) return void reqFile.stream.once('drain', () => done(null, chunk));
        }
        done(null, chunk);
      },
    });

    const headers = headerRecord(req.headers);
    headers.host = target.host;
    // The answer is read as it is sent (uncompressed), to be recorded and its addresses rewritten.
    headers['accept-encoding'] = 'identity';
    const upstream = send(new URL(req.url ?? '/', target.origin), { method: req.method, headers, agent });

    let recorded = false;
    const finish = async (response: Exchange['response'], rawResponse: unknown, error?: string) => {
      if (recorded) return; // one record per exchange (a failure after the answer was recorded adds nothing)
      recorded = true;
      let body: RecordedBody = { kind: 'none' };
      let form: Record<string, string> | null = null;
      if (reqBytes > 0) {
        const digest = reqHash.digest('hex');
        const file = reqFile as { tmp: string; stream: fs.WriteStream } | null;
        if (file) {
          await new Promise<void>((resolve, reject) => file.stream.end((e?: Error | null) => (e ? reject(e) : resolve())));
          await fsp.rename(file.tmp, path.join(o.dir, BODIES_DIR, digest));
          body = { kind: 'binary', bytes: reqBytes, sha256: digest, file: `${BODIES_DIR}/${digest}` };
        } else {
          const text = Buffer.concat(reqChunks).toString('utf8');
          if (reqClass === 'json') {
            try {
              body = { kind: 'json', json: redactor.json(JSON.parse(text)) };
            } catch {
              body = { kind: 'text', text: redactor.text(text) }; // not JSON after all: kept as (redacted) text
            }
          } else if (reqClass === 'form') {
            form = Object.fromEntries(new URLSearchParams(text));
            body = { kind: 'form', form: redactor.form(form) };
          } else body = { kind: 'text', text: redactor.text(text) };
        }
      }
      const ex: Exchange = {
        seq: n, startedAt, durationMs: Date.now() - started,
        request: { method: req.method ?? 'GET', path: redactor.url(req.url ?? '/'), headers: redactor.headers(headerRecord(req.headers)), body },
        response, ...(error ? { error } : {}),
      };
      learn(ex, req.headers.authorization, rawResponse, form);
      await queue(async () => {
        await fsp.appendFile(path.join(o.dir, EXCHANGES_FILE), `${JSON.stringify(ex)}\n`, { mode: 0o600 });
        await writeAtomically(path.join(o.dir, SESSION_FILE), `${JSON.stringify(info, null, 2)}\n`);
        if (o.keysFile) await writeAtomically(o.keysFile, `${JSON.stringify(Object.fromEntries(redactor.keys), null, 2)}\n`);
        written++;
      });
    };

    const answerFailure = (e: Error) => {
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'proxy-upstream-failed', message: e.message }));
      } else res.destroy(e);
      void finish(null, null, e.message);
    };

    upstream.on('response', (answer) => {
      const out = headerRecord(answer.headers);
      for (const k of ['location', 'content-location']) {
        if (typeof out[k] === 'string') out[k] = (out[k] as string).split(target.origin).join(proxyOrigin);
      }
      const klass = classOf(answer.headers['content-type']);
      const length = Number(answer.headers['content-length'] ?? NaN);
      const status = answer.statusCode ?? 502;
      const noBody = req.method === 'HEAD' || status === 204 || status === 304;
      if (!noBody && klass !== 'binary' && !(length > MAX_TEXT_BYTES)) {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('error', answerFailure);
        answer.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8').split(target.origin).join(proxyOrigin);
          const bytes = Buffer.from(text);
          out['content-length'] = String(bytes.length);
          res.writeHead(status, out);
          res.end(bytes);
          let body: RecordedBody = { kind: 'text', text: redactor.text(text) };
          let raw: unknown = null;
          if (klass === 'json' && text) {
            try {
              raw = JSON.parse(text);
              body = { kind: 'json', json: redactor.json(raw) };
            } catch {
              raw = null; // not JSON after all: kept as (redacted) text
            }
          } else if (klass === 'form') {
            const fields = Object.fromEntries(new URLSearchParams(text));
            raw = fields;
            body = { kind: 'form', form: redactor.form(fields) };
          }
          if (!text) body = { kind: 'none' };
          void finish({ status, headers: redactor.headers(out), body }, raw);
        });
        return;
      }
      res.writeHead(status, out);
      const hash = crypto.createHash('sha256');
      let bytes = 0;
      const tap = new Transform({
        transform(chunk: Buffer, _enc, done) {
          hash.update(chunk);
          bytes += chunk.length;
          done(null, chunk);
        },
      });
      pipeline(answer, tap, res).then(
        () => finish({ status, headers: redactor.headers(out), body: noBody || !bytes ? { kind: 'none' } : { kind: 'binary', bytes, sha256: hash.digest('hex') } }, null),
        answerFailure,
      );
    });
    upstream.on('error', answerFailure);
    // A client gone before its answer: the upstream request is given up too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    pipeline(req, tapRequest, upstream).catch(answerFailure);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const address = server.address() as { port: number };
  const url = `http://${o.host.includes(':') ? `[${o.host}]` : o.host}:${address.port}`;
  info.proxyOrigin = url;
  await writeAtomically(path.join(o.dir, SESSION_FILE), `${JSON.stringify(info, null, 2)}\n`);
  return {
    url,
    count: () => written,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      agent.destroy();
      await writes;
    },
  };
}
