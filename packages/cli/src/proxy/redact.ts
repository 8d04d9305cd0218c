// What the recording proxy writes instead of secrets and personal data (docs/sandbox.md
// "The recording proxy"): each value is replaced by a placeholder of its kind, the same value
// always by the same placeholder, so ids, references and "the same user" still line up in a
// recorded session. Secrets (tokens, passwords, cookies, signed-URL signatures) are never
// written anywhere; personal data (e-mails, names, companies, phone numbers) may be kept, by
// the proxy's --keys option, in a key file outside the session (placeholder → value) that
// `proxy diff --map` reads back.
import { mapPathAndQuery } from './paths.ts';

export type SecretKind = 'token' | 'password' | 'cookie' | 'signature';
export type PersonalKind = 'email' | 'name' | 'company' | 'phone';
export type Kind = SecretKind | PersonalKind;

const norm = (key: string) => key.toLowerCase().replace(/[-_\s]/g, '');

/** Keys (JSON members, form fields, query parameters) whose value is of a kind, whatever it looks like. */
const KEY_KINDS: Record<string, Kind> = {
  accesstoken: 'token', refreshtoken: 'token', idtoken: 'token', token: 'token', code: 'token', codeverifier: 'token',
  clientsecret: 'token', secret: 'token', apikey: 'token', authorization: 'token', invitationtoken: 'token', resettoken: 'token',
  xamzsecuritytoken: 'token', xamzcredential: 'token',
  password: 'password', newpassword: 'password', currentpassword: 'password', oldpassword: 'password', passwordconfirmation: 'password',
  sig: 'signature', signature: 'signature', xamzsignature: 'signature',
  email: 'email', emailaddress: 'email', useremail: 'email', mail: 'email',
  firstname: 'name', lastname: 'name', fullname: 'name', displayname: 'name', givenname: 'name', familyname: 'name', surname: 'name',
  company: 'company', companyname: 'company', organization: 'company', organisation: 'company',
  phone: 'phone', phonenumber: 'phone', mobile: 'phone',
};

export const kindOfKey = (key: string): Kind | undefined => KEY_KINDS[norm(key)];

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;
/** A JWT (or any three base64url parts of some length): a bearer token wherever it appears. */
const JWT = /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g;
const PLACEHOLDER = /^(redacted-(token|password|cookie|signature)-\d+|person-\d+@redacted\.invalid|Redacted (Name|Company) \d+|\+10000\d+)$/;

export const isPlaceholder = (s: string) => PLACEHOLDER.test(s);

export const isPersonal = (k: Kind): k is PersonalKind => k === 'email' || k === 'name' || k === 'company' || k === 'phone';

export class Redactor {
  /** Original → placeholder, for every kind. */
  private readonly placeholders = new Map<string, string>();
  private readonly counts: Record<Kind, number> = { token: 0, password: 0, cookie: 0, signature: 0, email: 0, name: 0, company: 0, phone: 0 };
  /** Personal data only: placeholder → original (the key file). */
  readonly keys = new Map<string, string>();
  /** Originals long enough to be looked for inside other strings (a token inside a URL). */
  private known: string[] = [];

  /** The placeholder of `value` as a `kind` (the same value: the same placeholder). */
  placeholder(kind: Kind, value: string): string {
    if (!value || isPlaceholder(value)) return value;
    const found = this.placeholders.get(value);
    if (found) return found;
    const n = ++this.counts[kind];
    const p = kind === 'email' ? `person-${n}@redacted.invalid`
      : kind === 'name' ? `Redacted Name ${n}`
        : kind === 'company' ? `Redacted Company ${n}`
          : kind === 'phone' ? `+10000${String(n).padStart(6, '0')}`
            : `redacted-${kind}-${n}`;
    this.placeholders.set(value, p);
    if (isPersonal(kind)) this.keys.set(p, value);
    if (value.length >= 8) this.known = [...this.known, value].sort((a, b) => b.length - a.length);
    return p;
  }

  /** A string of no known kind: e-mails and JWTs in it, and every secret met before, replaced. */
  text(s: string): string {
    if (isPlaceholder(s)) return s;
    // A URL's query parameters are redacted by their names (a signed URL's signature).
    if (/^https?:\/\/[^\s]*$/.test(s) || /^\/[^\s]*\?[^\s]*$/.test(s)) return this.locationHeader(s);
    let out = s.replace(JWT, (t) => this.placeholder('token', t)).replace(EMAIL, (e) => (e.endsWith('@redacted.invalid') ? e : this.placeholder('email', e)));
    for (const v of this.known) if (out.includes(v)) out = out.split(v).join(this.placeholders.get(v)!);
    return out;
  }

  /** A value under a key: the key's kind decides, else the text rules. */
  value(key: string | undefined, s: string): string {
    const kind = key === undefined ? undefined : kindOfKey(key);
    return kind ? this.placeholder(kind, s) : this.text(s);
  }

  /** A JSON value, recursively. A `name` beside an `email` is a person's name. */
  json(v: unknown, key?: string): unknown {
    if (typeof v === 'string') return this.value(key, v);
    if (Array.isArray(v)) return v.map((x) => this.json(x, key));
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const person = Object.keys(o).some((k) => kindOfKey(k) === 'email');
      return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, person && norm(k) === 'name' && typeof x === 'string' ? this.placeholder('name', x) : this.json(x, k)]));
    }
    return v;
  }

  /** A form body's fields. */
  form(fields: Record<string, string>): Record<string, string> {
    return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, this.value(k, v)]));
  }

  /** A path with its query: each path segment as text, each parameter by its name. */
  url(pathAndQuery: string): string {
    return mapPathAndQuery(pathAndQuery, (seg) => this.text(seg), (k, v) => this.value(k, v));
  }

  /** Request or answer headers (lower-case names). */
  headers(h: Record<string, string | string[]>): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const [name, raw] of Object.entries(h)) {
      const one = (v: string): string => {
        if (name === 'authorization' || name === 'proxy-authorization') {
          const m = /^(\S+)\s+(.+)$/.exec(v);
          return m ? `${m[1]} ${this.placeholder('token', m[2]!)}` : this.placeholder('token', v);
        }
        if (name === 'cookie') return v.split(/;\s*/).map((c) => this.cookie(c)).join('; ');
        if (name === 'set-cookie') return v.split(/;\s*/).map((c, i) => (i === 0 ? this.cookie(c) : c)).join('; ');
        if (name === 'location' || name === 'content-location') return this.locationHeader(v);
        const kind = kindOfKey(name);
        return kind ? this.placeholder(kind, v) : this.text(v);
      };
      out[name] = Array.isArray(raw) ? raw.map(one) : one(raw);
    }
    return out;
  }

  private cookie(c: string): string {
    const eq = c.indexOf('=');
    return eq < 0 ? c : `${c.slice(0, eq)}=${this.placeholder('cookie', c.slice(eq + 1))}`;
  }

  private locationHeader(v: string): string {
    const m = /^(https?:\/\/[^/?#]+)?(.*)$/.exec(v)!;
    return `${m[1] ?? ''}${this.url(m[2] ?? '')}`;
  }
}
