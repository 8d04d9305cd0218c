// An account's single sign-on and provisioning (docs/console.md "Single sign-on"; the API is
// docs/identity.md): the identity provider (its client secret written, never shown back), the
// e-mail domains with their verification and "require single sign-on" switch, the mapping
// rules (add, edit in place, remove) and the SCIM token (created or rotated and shown once,
// revoked). Account administrators only: the account's screens link here for its owner and
// administrators, and anyone else who opens the address sees the service's refusal. Every
// section keeps its place while it loads (its frame is drawn at once, disabled), and a
// refusal that names an input is shown next to that input.
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { api, uuidOf } from '../api.ts';
import { ACCOUNT_ROLE_NAMES, formatDate, formatFullDate } from '../format.ts';
import { apiPath, type ApiPath } from '../paths.ts';
import {
  EMPTY_RULE, domainState, fieldOf, operatorCommand, providerBody, providerFormOf, ruleBody, ruleFormOf,
  type FieldProblem, type ProviderForm, type RuleForm,
} from '../sso-forms.ts';
import type { Account, ClaimedSsoDomain, Group, NewScimToken, ScimTokenInfo, SsoDomain, SsoProvider, SsoRule, SsoSettings } from '../types.ts';
import { AccountPage, Action, CopyButton, Empty, ErrorBox, Head, IconButton, LoadState, toast, useAction, useConfirm, useLoad, type Loaded } from '../ui.tsx';

/** The owner and administrators hold account:administrators:read/write (docs/permissions.md). */
export const administers = (a: Account | undefined): boolean => Boolean(a && (a.permissions.isOwner || a.permissions.isAdmin));

/** The error to show next to an input: the form's own check, or the service's refusal naming it. */
function problemFor(field: string, local: FieldProblem | null, error: unknown, fields: readonly string[]): string | null {
  if (local?.field === field) return local.message;
  return fieldOf(error, fields) === field && error instanceof Error ? error.message : null;
}

/** A labelled input with its error under it (aria-invalid, described by the message). */
function Field(props: { id: string; label: string; error: string | null; hint?: ComponentChildren; children: (a: { id: string; 'aria-invalid'?: 'true'; 'aria-describedby'?: string }) => ComponentChildren }) {
  const described = [props.error ? `${props.id}-error` : null, props.hint ? `${props.id}-hint` : null].filter(Boolean).join(' ');
  return (
    <>
      <label for={props.id}>{props.label}</label>
      <div class="field">
        {props.children({ id: props.id, ...(props.error ? { 'aria-invalid': 'true' } : {}), ...(described ? { 'aria-describedby': described } : {}) })}
        {props.hint ? (
          <small id={`${props.id}-hint`} class="muted">
            {props.hint}
          </small>
        ) : null}
        {props.error ? (
          <small id={`${props.id}-error`} class="error-text" role="alert">
            {props.error}
          </small>
        ) : null}
      </div>
    </>
  );
}

/**
 * Moves the focus to the input a refusal names, so a keyboard user lands where to fix it.
 * Keyed on the refusal itself (the form's own check or the service's answer), not on the
 * field: the same field refused twice in a row moves the focus there again.
 * A layout effect: the focus moves in the same commit that shows the error (an effect runs
 * after the paint, so a loaded machine showed the error with the focus still on the button).
 */
function useFocusOnProblem(prefix: string, refusal: unknown, field: string | null) {
  useLayoutEffect(() => {
    if (field) document.getElementById(`${prefix}-${field}`)?.focus();
  }, [refusal]);
}

const PROVIDER_FIELDS = ['displayName', 'issuer', 'clientId', 'clientSecret', 'scopes', 'enabled', 'protocol', 'samlEntityId', 'samlSsoUrl', 'samlCertificate'] as const;

function ProviderSection(props: { base: ApiPath; provider: SsoProvider | null | undefined; loaded: boolean; accountId: string; onSaved: () => void }) {
  const [form, setForm] = useState<ProviderForm>(providerFormOf(props.provider ?? null));
  const [saved, setSaved] = useState<SsoProvider | null>(props.provider ?? null);
  const [local, setLocal] = useState<FieldProblem | null>(null);
  const [run, busy, error] = useAction();
  const [ask, confirmDialog] = useConfirm();
  // The form is filled once, when the settings first arrive; after that it holds what was typed or saved.
  // It stays disabled until then: enabled by `loaded` alone, it could take typing in the frame between
  // the settings' arrival and this effect, which would then overwrite what was typed.
  const [filled, setFilled] = useState(false);
  useEffect(() => {
    if (filled || !props.loaded) return;
    setFilled(true);
    setForm(providerFormOf(props.provider ?? null));
    setSaved(props.provider ?? null);
  }, [props.loaded]);
  const set = <K extends keyof ProviderForm>(k: K, v: ProviderForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const problem = (field: string) => problemFor(field, local, error, PROVIDER_FIELDS);
  useFocusOnProblem('sso', local ?? error, local?.field ?? fieldOf(error, PROVIDER_FIELDS));
  const disabled = !filled;

  const save = async (e: Event) => {
    e.preventDefault();
    const checked = providerBody(form);
    if ('problem' in checked) {
      setLocal(checked.problem);
      return;
    }
    setLocal(null);
    let answer: SsoProvider | null = null;
    if (await run(async () => (answer = await api<SsoProvider>('PUT', apiPath`${props.base}/sso/provider`, checked.body)))) {
      const p = answer as SsoProvider | null;
      setSaved(p);
      setForm(providerFormOf(p));
      toast('Identity provider saved');
      props.onSaved();
    }
  };
  const remove = async () => {
    const ok = await ask({
      title: 'Remove the identity provider?',
      body: 'Users of the account\'s domains sign in with a password again; those created by single sign-on set one with "Forgot password?". Domains that require single sign-on stop requiring it.',
      action: 'Remove the provider',
    });
    if (ok && (await run(() => api('DELETE', apiPath`${props.base}/sso/provider`)))) {
      setSaved(null);
      setForm(providerFormOf(null));
      toast('Identity provider removed');
      props.onSaved();
    }
  };
  const unnamed = error && !fieldOf(error, PROVIDER_FIELDS) ? error : null;
  return (
    <section aria-labelledby="sso-provider-title" class="settings-section">
      <h2 id="sso-provider-title">Identity provider</h2>
      <p class="muted">
        The sign-in page offers "Continue with <em>display name</em>" to the users of the verified domains below. With OpenID Connect, Scanbase reads the provider's
        settings from <code>&lt;issuer&gt;/.well-known/openid-configuration</code>; with SAML 2.0, give the IdP the values below once saved.
      </p>
      <form class="grid-form settings" onSubmit={save} aria-label="Identity provider" aria-busy={disabled ? 'true' : undefined} noValidate>
        <fieldset class="choice">
          <legend>Protocol</legend>
          <label>
            <input type="radio" name="sso-protocol" checked={form.protocol === 'oidc'} onChange={() => set('protocol', 'oidc')} /> OpenID Connect
          </label>
          <label>
            <input type="radio" name="sso-protocol" checked={form.protocol === 'saml'} onChange={() => set('protocol', 'saml')} /> SAML 2.0
          </label>
        </fieldset>
        <Field id="sso-displayName" label="Display name" error={problem('displayName')} hint='Shown as "Continue with …"'>
          {(a) => <input {...a} value={form.displayName} maxLength={80} disabled={disabled} onInput={(e) => set('displayName', e.currentTarget.value)} />}
        </Field>
        {form.protocol === 'saml' ? (
          <>
            <Field id="sso-samlEntityId" label="IdP entity id" error={problem('samlEntityId')}>
              {(a) => <input {...a} value={form.samlEntityId} disabled={disabled} onInput={(e) => set('samlEntityId', e.currentTarget.value)} />}
            </Field>
            <Field id="sso-samlSsoUrl" label="IdP sign-on URL" error={problem('samlSsoUrl')}>
              {(a) => <input {...a} type="url" value={form.samlSsoUrl} disabled={disabled} onInput={(e) => set('samlSsoUrl', e.currentTarget.value)} />}
            </Field>
            <Field id="sso-samlCertificate" label="IdP signing certificate (PEM)" error={problem('samlCertificate')}>
              {(a) => <textarea {...a} rows={4} value={form.samlCertificate} disabled={disabled} onInput={(e) => set('samlCertificate', e.currentTarget.value)} />}
            </Field>
          </>
        ) : (
          <>
            <Field id="sso-issuer" label="Issuer URL" error={problem('issuer')} hint="https (http only on localhost)">
              {(a) => <input {...a} type="url" value={form.issuer} maxLength={2048} placeholder="https://login.example.com/realms/acme" disabled={disabled} onInput={(e) => set('issuer', e.currentTarget.value)} />}
            </Field>
            <Field id="sso-clientId" label="Client id" error={problem('clientId')}>
              {(a) => <input {...a} value={form.clientId} maxLength={512} autoComplete="off" disabled={disabled} onInput={(e) => set('clientId', e.currentTarget.value)} />}
            </Field>
            <fieldset class="choice" disabled={disabled}>
              <legend>Client secret</legend>
              {saved?.hasClientSecret ? (
                <label>
                  <input type="radio" name="sso-secret" checked={form.secretChoice === 'keep'} onChange={() => set('secretChoice', 'keep')} /> Keep the stored one
                </label>
              ) : null}
              <label>
                <input type="radio" name="sso-secret" checked={form.secretChoice === 'replace'} onChange={() => set('secretChoice', 'replace')} />{' '}
                {saved?.hasClientSecret ? 'Replace it' : 'Set one'}
              </label>
              <label>
                <input type="radio" name="sso-secret" checked={form.secretChoice === 'none'} onChange={() => set('secretChoice', 'none')} /> None (a public client, PKCE only)
              </label>
            </fieldset>
            {/* Always drawn (enabled only to replace or set one), so choosing or loading moves nothing. */}
            <Field id="sso-clientSecret" label="New client secret" error={problem('clientSecret')} hint="Written once: the service never shows it back">
              {(a) => (
                <input
                  {...a}
                  type="password"
                  value={form.secretChoice === 'replace' ? form.clientSecret : ''}
                  maxLength={2048}
                  autoComplete="new-password"
                  disabled={disabled || form.secretChoice !== 'replace'}
                  onInput={(e) => set('clientSecret', e.currentTarget.value)}
                />
              )}
            </Field>
            <Field id="sso-scopes" label="Scopes" error={problem('scopes')} hint="Separated by spaces; openid and email are always asked for">
              {(a) => <input {...a} value={form.scopes} disabled={disabled} onInput={(e) => set('scopes', e.currentTarget.value)} />}
            </Field>
          </>
        )}
        <label class="span">
          <input type="checkbox" role="switch" checked={form.enabled} disabled={disabled} onChange={(e) => set('enabled', e.currentTarget.checked)} /> Offer single sign-on
          with this provider
        </label>
        <div class="span row">
          <Action label="Save provider" type="submit" kind="primary" busy={busy || disabled} />
          {saved ? <Action label="Remove provider" kind="danger" busy={busy} onClick={() => void remove()} /> : null}
        </div>
      </form>
      <ErrorBox error={unnamed} />
      {/* Drawn at once, its rows filled when the settings arrive: nothing below moves. */}
      <dl class="fields reserve" aria-busy={disabled ? 'true' : undefined}>
        {saved?.saml ? (
          <>
            <dt>Our entity id</dt>
            <dd>
              <code id="sso-sp-entity-id">{saved.saml.spEntityId}</code> <CopyButton text={saved.saml.spEntityId} what="entity id" />
            </dd>
            <dt>Reply (ACS) URL</dt>
            <dd>
              <code id="sso-acs-url">{saved.saml.acsUrl}</code> <CopyButton text={saved.saml.acsUrl} what="ACS URL" />
            </dd>
            <dt>Our metadata</dt>
            <dd>
              <a href={saved.saml.metadataUrl} target="_blank" rel="noopener">
                {saved.saml.metadataUrl}
              </a>
            </dd>
          </>
        ) : null}
        <dt>Redirect URI</dt>
        <dd>
          {saved?.saml ? (
            <span class="muted">None: a SAML IdP posts to the reply URL.</span>
          ) : saved ? (
            <>
              <code id="sso-redirect-uri">{saved.redirectUri}</code> <CopyButton text={saved.redirectUri} what="redirect URI" />
              <small class="muted"> Register it at the identity provider.</small>
            </>
          ) : disabled ? (
            'Loading…'
          ) : (
            <span class="muted">Given when the provider is saved.</span>
          )}
        </dd>
        <dt>Client secret</dt>
        <dd>{disabled ? 'Loading…' : saved?.hasClientSecret ? 'stored (never shown)' : 'none'}</dd>
        <dt>Test sign-in</dt>
        <dd>
          {saved ? (
            <>
              <a id="sso-test-link" href={`/console/a/${props.accountId}`} target="_blank" rel="noopener">
                Open the console's sign-in
              </a>{' '}
              <small class="muted">in a private window (this browser is signed in as you), with a domain user's address</small>
            </>
          ) : disabled ? (
            'Loading…'
          ) : (
            <span class="muted">Once the provider is saved.</span>
          )}
        </dd>
      </dl>
      {confirmDialog}
    </section>
  );
}

function DomainRow(props: { base: ApiPath; domain: SsoDomain; providerEnabled: boolean; onChange: () => void; ask: ReturnType<typeof useConfirm>[0] }) {
  const d = props.domain;
  const [run, busy, error] = useAction();
  const url = apiPath`${props.base}/sso/domains/${d.domain}`;
  const why = !d.verified ? 'Verify the domain first' : !props.providerEnabled && !d.requireSso ? 'Set up and enable the provider first' : null;
  // The switch shows the position asked for while the service answers; a refusal puts it back.
  const [asked, setAsked] = useState<boolean | null>(null);
  useEffect(() => setAsked(null), [d.requireSso]);
  const toggle = (on: boolean) => {
    setAsked(on);
    void run(() => api('PATCH', url, { requireSso: on })).then((ok) => {
      if (!ok) {
        setAsked(null);
        return;
      }
      toast(on ? `${d.domain} requires single sign-on` : `${d.domain} accepts passwords again`);
      props.onChange();
    });
  };
  const remove = async () => {
    const ok = await props.ask({
      title: `Remove ${d.domain}?`,
      body: `Users of ${d.domain} are no longer offered the account's identity provider; a password is enough again.`,
      action: 'Remove the domain',
    });
    if (ok && (await run(() => api('DELETE', url)))) {
      toast(`${d.domain} removed`);
      props.onChange();
    }
  };
  const switchId = `require-${d.domain}`;
  return (
    <tr>
      <td>{d.domain}</td>
      <td>
        <span class={d.verified ? 'badge' : 'badge pending'}>{d.verified ? 'Verified' : 'Pending'}</span> <small class="muted">{domainState(d)}</small>
      </td>
      <td>
        <label for={switchId}>
          <input
            id={switchId}
            type="checkbox"
            role="switch"
            checked={asked ?? d.requireSso}
            disabled={busy || Boolean(why)}
            aria-describedby={why ? `${switchId}-why` : undefined}
            onChange={(e) => toggle(e.currentTarget.checked)}
          />{' '}
          Require single sign-on for {d.domain}
        </label>
        {why ? (
          <small class="why" id={`${switchId}-why`}>
            {why}
          </small>
        ) : null}
        <ErrorBox error={error} />
      </td>
      <td class="row-actions">
        <IconButton icon="remove" danger disabled={busy} label={`Remove ${d.domain}`} onClick={() => void remove()} />
      </td>
    </tr>
  );
}

function DomainsSection(props: { base: ApiPath; domains: SsoDomain[] | undefined; providerEnabled: boolean; onChange: () => void }) {
  const [domain, setDomain] = useState('');
  const [claimed, setClaimed] = useState<ClaimedSsoDomain | null>(null);
  const [run, busy, error] = useAction();
  const [ask, confirmDialog] = useConfirm();
  const fieldError = fieldOf(error, ['domain']) ? (error as Error).message : null;
  const claim = async (e: Event) => {
    e.preventDefault();
    if (!domain.trim()) return;
    let answer: ClaimedSsoDomain | null = null;
    if (await run(async () => (answer = await api<ClaimedSsoDomain>('POST', apiPath`${props.base}/sso/domains`, { domain: domain.trim() })))) {
      setClaimed(answer);
      setDomain('');
      props.onChange();
    }
  };
  return (
    <section aria-labelledby="sso-domains-title" class="settings-section">
      <h2 id="sso-domains-title">E-mail domains</h2>
      <p class="muted">
        A verified domain sends its users' addresses to this account's identity provider. The deployment's operator verifies a claim with its token (no DNS record is
        read).
      </p>
      <form class="row" onSubmit={claim} aria-label="Claim a domain" noValidate>
        <label for="sso-domain">Domain to claim</label>
        <input
          id="sso-domain"
          value={domain}
          placeholder="example.com"
          maxLength={253}
          disabled={!props.domains}
          aria-invalid={fieldError ? 'true' : undefined}
          aria-describedby={fieldError ? 'sso-domain-error' : undefined}
          onInput={(e) => setDomain(e.currentTarget.value)}
        />
        <Action label="Claim domain" type="submit" kind="primary" busy={busy || !props.domains} />
      </form>
      {fieldError ? (
        <small id="sso-domain-error" class="error-text" role="alert">
          {fieldError}
        </small>
      ) : (
        <ErrorBox error={error} />
      )}
      {claimed ? (
        <div class="shown-once" role="region" aria-label={`Verification of ${claimed.domain}`}>
          <p>
            <strong>{claimed.domain}</strong> is claimed. Its verification token is shown this once: give it to the operator of this deployment, with proof that the account
            owns the domain (for example from the domain's postmaster). They run:
          </p>
          <pre>
            <code id="sso-operator-command">{operatorCommand(claimed.domain, claimed.verificationToken)}</code>
          </pre>
          <CopyButton text={operatorCommand(claimed.domain, claimed.verificationToken)} what="the command" />
          <button type="button" class="secondary small" onClick={() => setClaimed(null)}>
            Done
          </button>
        </div>
      ) : null}
      <table aria-label="Domains" aria-busy={props.domains ? undefined : 'true'}>
        <Head cols={['Domain', 'State', 'Single sign-on', 'Actions']} />
        <tbody>
          {props.domains ? (
            props.domains.map((d) => <DomainRow key={d.domain} base={props.base} domain={d} providerEnabled={props.providerEnabled} onChange={props.onChange} ask={ask} />)
          ) : (
            <tr class="loading-row">
              <td colSpan={4} class="muted">
                Loading…
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {props.domains?.length === 0 ? <Empty icon="mail">No domain yet: claim your company's e-mail domain.</Empty> : null}
      {confirmDialog}
    </section>
  );
}

const RULE_FIELDS = ['claim', 'value', 'group', 'accountRole'] as const;
const ROLE_OPTIONS = Object.entries(ACCOUNT_ROLE_NAMES) as [keyof typeof ACCOUNT_ROLE_NAMES, string][];

function RulesSection(props: { base: ApiPath; rules: SsoRule[] | undefined; groups: Loaded<Group[]>; onChange: () => void }) {
  const [form, setForm] = useState<RuleForm>(EMPTY_RULE);
  const [editing, setEditing] = useState<SsoRule | null>(null);
  const [local, setLocal] = useState<FieldProblem | null>(null);
  const [run, busy, error, clear] = useAction();
  const [ask, confirmDialog] = useConfirm();
  const set = <K extends keyof RuleForm>(k: K, v: RuleForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const problem = (field: string) => problemFor(field, local, error, RULE_FIELDS);
  useFocusOnProblem('rule', local ?? error, local?.field ?? fieldOf(error, RULE_FIELDS));
  const groupName = (urn: string | null) => (urn ? (props.groups.data?.find((g) => uuidOf(g.id) === uuidOf(urn))?.name ?? uuidOf(urn)) : '—');
  const reset = () => {
    setEditing(null);
    setForm(EMPTY_RULE);
    setLocal(null);
    clear();
  };
  const save = async (e: Event) => {
    e.preventDefault();
    const checked = ruleBody(form);
    if ('problem' in checked) {
      setLocal(checked.problem);
      return;
    }
    setLocal(null);
    const ok = await run(() =>
      editing ? api('PUT', apiPath`${props.base}/sso/rules/${editing.id}`, checked.body) : api('POST', apiPath`${props.base}/sso/rules`, checked.body),
    );
    if (ok) {
      toast(editing ? 'Rule saved' : 'Rule added');
      reset();
      props.onChange();
    }
  };
  const remove = async (r: SsoRule) => {
    const ok = await ask({
      title: 'Remove the rule?',
      body: `From their next sign-in, users with ${r.claim} = ${r.value} no longer get what it gives (unless another rule gives it).`,
      action: 'Remove the rule',
    });
    if (ok && (await run(() => api('DELETE', apiPath`${props.base}/sso/rules/${r.id}`)))) {
      toast('Rule removed');
      if (editing?.id === r.id) reset();
      props.onChange();
    }
  };
  const unnamed = error && !fieldOf(error, RULE_FIELDS) ? error : null;
  const disabled = !props.rules;
  return (
    <section aria-labelledby="sso-rules-title" class="settings-section">
      <h2 id="sso-rules-title">Mapping rules</h2>
      <p class="muted">
        At every sign-in, a user whose ID token claim holds the value gets the group and the account role of the rule; a group or role some rule names is taken from a user
        no rule gives it. Every matching rule applies, so their order does not matter.
      </p>
      <table aria-label="Mapping rules" aria-busy={disabled ? 'true' : undefined}>
        <Head cols={['Claim', 'Value', 'Group', 'Account role', 'Actions']} />
        <tbody>
          {props.rules ? (
            props.rules.map((r) => (
              <tr key={r.id} class={editing?.id === r.id ? 'current' : undefined}>
                <td>
                  <code>{r.claim}</code>
                </td>
                <td>{r.value}</td>
                <td>{groupName(r.group)}</td>
                <td>{r.accountRole ? ACCOUNT_ROLE_NAMES[r.accountRole] : '—'}</td>
                <td class="row-actions">
                  <IconButton
                    icon="rename"
                    label={`Edit the rule ${r.claim} = ${r.value}`}
                    onClick={() => {
                      setEditing(r);
                      setForm(ruleFormOf(r));
                      setLocal(null);
                      clear();
                      document.getElementById('rule-claim')?.focus();
                    }}
                  />
                  <IconButton icon="remove" danger disabled={busy} label={`Remove the rule ${r.claim} = ${r.value}`} onClick={() => void remove(r)} />
                </td>
              </tr>
            ))
          ) : (
            <tr class="loading-row">
              <td colSpan={5} class="muted">
                Loading…
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {props.rules?.length === 0 ? <Empty>No rule: users signing in keep the groups and roles an administrator gives them.</Empty> : null}
      <form class="grid-form settings" onSubmit={save} aria-label={editing ? `Edit the rule ${editing.claim} = ${editing.value}` : 'New mapping rule'} noValidate>
        <Field id="rule-claim" label="Claim" error={problem('claim')} hint="e.g. groups, roles, realm_access.roles">
          {(a) => <input {...a} value={form.claim} maxLength={100} disabled={disabled} onInput={(e) => set('claim', e.currentTarget.value)} />}
        </Field>
        <Field id="rule-value" label="Value" error={problem('value')}>
          {(a) => <input {...a} value={form.value} maxLength={256} disabled={disabled} onInput={(e) => set('value', e.currentTarget.value)} />}
        </Field>
        <Field id="rule-group" label="Group" error={problem('group')}>
          {(a) => (
            <select {...a} value={form.group} disabled={disabled} onChange={(e) => set('group', e.currentTarget.value)}>
              <option value="">None</option>
              {(props.groups.data ?? []).map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="rule-accountRole" label="Account role" error={problem('accountRole')}>
          {(a) => (
            <select {...a} value={form.accountRole} disabled={disabled} onChange={(e) => set('accountRole', e.currentTarget.value as RuleForm['accountRole'])}>
              <option value="">None</option>
              {ROLE_OPTIONS.map(([id, name]) => (
                <option key={id} value={id}>
                  {name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div class="span row">
          <Action label={editing ? 'Save rule' : 'Add rule'} type="submit" kind="primary" busy={busy || disabled} />
          {editing ? <Action label="Cancel" onClick={reset} /> : null}
        </div>
      </form>
      <ErrorBox error={unnamed} />
      {/* Only a failure: while they load, the group menu is simply short (no line that comes and goes). */}
      {props.groups.error ? <LoadState of={[props.groups]} what="the account's groups" /> : null}
      {confirmDialog}
    </section>
  );
}

function ScimSection(props: { base: ApiPath; loaded: Loaded<ScimTokenInfo> }) {
  const info = props.loaded.data;
  const [made, setMade] = useState<NewScimToken | null>(null);
  const [run, busy, error] = useAction();
  const [ask, confirmDialog] = useConfirm();
  const url = apiPath`${props.base}/scim/token`;
  const create = async () => {
    if (info?.hasToken) {
      const ok = await ask({
        title: 'Rotate the SCIM token?',
        body: 'The token the identity provider holds stops working at once: give it the new one.',
        action: 'Rotate the token',
      });
      if (!ok) return;
    }
    let answer: NewScimToken | null = null;
    if (await run(async () => (answer = await api<NewScimToken>('POST', url)))) {
      setMade(answer);
      props.loaded.reload();
    }
  };
  const revoke = async () => {
    const ok = await ask({
      title: 'Revoke the SCIM token?',
      body: 'The identity provider can no longer create, change or deactivate the account\'s users and groups until it gets a new token.',
      action: 'Revoke the token',
    });
    if (ok && (await run(() => api('DELETE', url)))) {
      setMade(null);
      toast('SCIM token revoked');
      props.loaded.reload();
    }
  };
  return (
    <section aria-labelledby="sso-scim-title" class="settings-section">
      <h2 id="sso-scim-title">SCIM provisioning</h2>
      <p class="muted">The identity provider creates, updates and deactivates the account's users and groups with this base URL and bearer token.</p>
      {props.loaded.error ? (
        <LoadState of={[props.loaded]} what="the SCIM token" />
      ) : (
        <dl class="fields" aria-busy={info ? undefined : 'true'}>
          <dt>Base URL</dt>
          <dd>
            {info ? (
              <>
                <code>{info.baseUrl}</code> <CopyButton text={info.baseUrl} what="base URL" />
              </>
            ) : (
              'Loading…'
            )}
          </dd>
          <dt>Token</dt>
          <dd id="scim-token-state">
            {!info ? (
              'Loading…'
            ) : info.hasToken && info.createdAt ? (
              <>
                set on <time dateTime={info.createdAt} title={formatFullDate(info.createdAt)}>{formatDate(info.createdAt)}</time> (never shown again)
              </>
            ) : (
              'none'
            )}
          </dd>
        </dl>
      )}
      {made ? (
        <div class="shown-once" role="region" aria-label="New SCIM token">
          <p>
            <strong>The new token, shown this once.</strong> Give it to the identity provider as its bearer token now; the service keeps only a digest of it.
          </p>
          <label for="scim-new-token">SCIM bearer token</label>
          <input id="scim-new-token" readOnly value={made.token} onFocus={(e) => e.currentTarget.select()} />
          <CopyButton text={made.token} what="token" />
          <button type="button" class="secondary small" onClick={() => setMade(null)}>
            Done
          </button>
        </div>
      ) : null}
      <div class="row">
        <Action label={info?.hasToken ? 'Rotate token' : 'Create token'} kind="primary" busy={busy || !info} onClick={() => void create()} />
        {info?.hasToken ? <Action label="Revoke token" kind="danger" busy={busy} onClick={() => void revoke()} /> : null}
      </div>
      <ErrorBox error={error} />
      {confirmDialog}
    </section>
  );
}

export function SsoScreen(props: { accountId: string }) {
  const base = apiPath`/api/2/accounts/${props.accountId}`;
  const settings = useLoad(() => api<SsoSettings>('GET', apiPath`${base}/sso`), `${base} sso`);
  const groups = useLoad(() => api<Group[]>('GET', apiPath`${base}/groups`), `${base} groups`);
  const scim = useLoad(() => api<ScimTokenInfo>('GET', apiPath`${base}/scim/token`), `${base} scim`);
  const s = settings.data;
  // A refusal (403 for anyone but the owner and administrators, 404) is the whole screen: nothing else is shown.
  if (settings.error && !s) {
    return (
      <AccountPage accountId={props.accountId} title="Single sign-on">
        <LoadState of={[settings]} what="the single sign-on settings" />
      </AccountPage>
    );
  }
  return (
    <AccountPage accountId={props.accountId} title="Single sign-on">
      <ProviderSection base={base} provider={s?.provider} loaded={Boolean(s)} accountId={props.accountId} onSaved={settings.reload} />
      <DomainsSection base={base} domains={s?.domains} providerEnabled={Boolean(s?.provider?.enabled)} onChange={settings.reload} />
      <RulesSection base={base} rules={s?.rules} groups={groups} onChange={settings.reload} />
      <ScimSection base={base} loaded={scim} />
    </AccountPage>
  );
}
