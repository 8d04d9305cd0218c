// The SAML 2.0 service provider over @node-saml/node-saml (docs/identity.md "SAML",
// docs/decisions.md "SAML sign-in"): the AuthnRequest by the HTTP-Redirect binding, the
// POSTed response's validation (the XML signature of the response or of the assertion against
// the IdP's certificates, one assertion only, NotBefore/NotOnOrAfter with the allowed clock
// skew, the audience), then the checks the library leaves to its caller: the assertion's
// Issuer, its bearer SubjectConfirmationData (Recipient, NotOnOrAfter, InResponseTo) and the
// response's Destination. The SP metadata the administrator gives the IdP.
import { SAML, SamlStatusError, ValidateInResponseTo } from '@node-saml/node-saml';
import { XMLParser } from 'fast-xml-parser';
import { IdpError, SamlRefusal, type SamlAssertion, type SamlIdp, type SamlServiceProvider, type SamlRefusalReason } from '../core/ports.ts';

/** Clock skew allowed between the IdP's clock and ours (docs/decisions.md). */
export const SAML_CLOCK_SKEW_MS = 2 * 60 * 1000;

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

type XmlNode = { $?: Record<string, string>; _?: string; [child: string]: unknown };
const children = (node: XmlNode | undefined, name: string): XmlNode[] => {
  const v = node?.[name];
  return Array.isArray(v) ? (v as XmlNode[]) : [];
};

function samlOf(idp: SamlIdp, requestId?: string): SAML {
  return new SAML({
    callbackUrl: idp.acsUrl,
    entryPoint: idp.ssoUrl,
    issuer: idp.spEntityId,
    audience: idp.spEntityId,
    idpCert: idp.certificates,
    // A signed response or a signed assertion: either one, never neither (node-saml checks the
    // assertion's signature whenever the response carries none).
    wantAssertionsSigned: false,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    // InResponseTo is checked by the core against the request this browser started (in the
    // database, so that any node may receive the response).
    validateInResponseTo: ValidateInResponseTo.never,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    ...(requestId ? { generateUniqueId: () => requestId } : {}),
  });
}

function reasonOf(e: unknown): { reason: SamlRefusalReason; message: string } {
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof SamlStatusError) return { reason: 'idp-refused', message };
  if (/signature/i.test(message)) return { reason: 'signature', message };
  if (/expired|not yet valid/i.test(message)) return { reason: 'expired', message };
  if (/audience/i.test(message)) return { reason: 'audience', message };
  return { reason: 'idp-refused', message };
}

export function createNodeSamlServiceProvider(opts: { timeoutSeconds: number }): SamlServiceProvider {
  return {
    async probe(idp) {
      // The browser is sent to the IdP next: a clear page now beats the browser's own error page.
      try {
        const res = await fetch(idp.ssoUrl, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(opts.timeoutSeconds * 1000) });
        await res.body?.cancel();
      } catch (e) {
        const timedOut = e instanceof Error && e.name === 'TimeoutError';
        throw new IdpError('unreachable', timedOut ? 'no answer in time' : `its sign-in address cannot be reached (${e instanceof Error && e.cause instanceof Error ? e.cause.message : String(e)})`);
      }
    },

    async authnRequestUrl(idp, p) {
      const url = await samlOf(idp, p.requestId).getAuthorizeUrlAsync(p.relayState, undefined, {});
      return new URL(url);
    },

    async validate(idp, samlResponse, nowMs) {
      let profile;
      try {
        ({ profile } = await samlOf(idp).validatePostResponseAsync({ SAMLResponse: samlResponse }));
      } catch (e) {
        const { reason, message } = reasonOf(e);
        throw new SamlRefusal(reason, message);
      }
      if (!profile) throw new SamlRefusal('idp-refused', 'the response carries no assertion');
      const assertion = (profile.getAssertion?.() as { Assertion?: XmlNode } | undefined)?.Assertion;
      if (!assertion) throw new SamlRefusal('idp-refused', 'the response carries no assertion');
      const issuer = children(assertion, 'Issuer')[0]?._ ?? '';
      if (issuer !== idp.entityId) throw new SamlRefusal('idp-refused', `the assertion's issuer is ${JSON.stringify(issuer.slice(0, 200))}, not the IdP's entity ID`);
      const id = assertion.$?.ID;
      if (!id) throw new SamlRefusal('idp-refused', 'the assertion has no ID');
      const destination = /<(?:\w+:)?Response\b[^>]*\sDestination="([^"]*)"/.exec(profile.getSamlResponseXml?.() ?? '')?.[1];
      if (destination !== undefined && destination !== idp.acsUrl) {
        throw new SamlRefusal('recipient', `the response is addressed to ${destination.slice(0, 200)}, not to this account's ACS URL`);
      }
      const confirmations = children(children(assertion, 'Subject')[0], 'SubjectConfirmation')
        .filter((c) => c.$?.Method === BEARER)
        .map((c) => children(c, 'SubjectConfirmationData')[0]?.$ ?? {});
      if (confirmations.length === 0) throw new SamlRefusal('idp-refused', 'the assertion has no bearer subject confirmation');
      const forUs = confirmations.filter((c) => c.Recipient === idp.acsUrl);
      if (forUs.length === 0) throw new SamlRefusal('recipient', "the assertion's Recipient is not this account's ACS URL");
      const live = forUs.filter((c) => c.NotOnOrAfter && nowMs - SAML_CLOCK_SKEW_MS < Date.parse(c.NotOnOrAfter));
      if (live.length === 0) throw new SamlRefusal('expired', "SAML assertion expired: the subject confirmation's NotOnOrAfter has passed (or is missing)");
      const confirmation = live[0]!;
      const conditions = children(assertion, 'Conditions')[0]?.$ ?? {};
      const ends = [confirmation.NotOnOrAfter, conditions.NotOnOrAfter].filter((v): v is string => !!v).map((v) => Date.parse(v));
      const attributes: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(profile.attributes ?? {})) {
        if (typeof value === 'string') attributes[name] = value;
        else if (Array.isArray(value)) attributes[name] = value.filter((v): v is string => typeof v === 'string');
      }
      const assertionResult: SamlAssertion = {
        id,
        issuer,
        nameId: profile.nameID ?? '',
        nameIdFormat: profile.nameIDFormat ?? null,
        inResponseTo: confirmation.InResponseTo ?? null,
        notOnOrAfter: new Date(Math.max(...ends) + SAML_CLOCK_SKEW_MS),
        attributes,
      };
      return assertionResult;
    },

    metadata(idp) {
      return samlOf(idp).generateServiceProviderMetadata(null, null);
    },

    idpFromMetadata: readIdpMetadata,
  };
}

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const METADATA_CHARS = 256 * 1024;

/** An IdP's metadata (SAML metadata §2.3.2, §2.4.3): namespaces dropped, no entity expansion, no DTD. */
function readIdpMetadata(xml: string): { entityId: string; ssoUrl: string | null; certificates: string[] } | null {
  if (xml.length > METADATA_CHARS || /<!DOCTYPE/i.test(xml)) return null;
  const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]) as Record<string, unknown>[];
  let doc: Record<string, unknown>;
  try {
    doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true, processEntities: false }).parse(xml) as Record<string, unknown>;
  } catch {
    return null;
  }
  // One EntityDescriptor, or the first of an EntitiesDescriptor that has an IDPSSODescriptor.
  const entities = [...list(doc.EntityDescriptor), ...list(list(doc.EntitiesDescriptor)[0]?.EntityDescriptor)];
  const entity = entities.find((e) => list(e.IDPSSODescriptor).length > 0);
  const idp = entity && list(entity.IDPSSODescriptor)[0];
  if (!entity || !idp || typeof entity['@entityID'] !== 'string') return null;
  const sso = list(idp.SingleSignOnService).find((s) => s['@Binding'] === REDIRECT_BINDING);
  const certificates = list(idp.KeyDescriptor)
    .filter((k) => k['@use'] === undefined || k['@use'] === 'signing')
    .map((k) => list(list(list(k.KeyInfo)[0]?.X509Data)[0]?.X509Certificate)[0])
    .map((c) => (typeof c === 'string' ? c : typeof c === 'object' && c !== null ? String((c as Record<string, unknown>)['#text'] ?? '') : ''))
    .map((c) => c.replace(/\s+/g, ''))
    .filter(Boolean);
  return { entityId: entity['@entityID'], ssoUrl: typeof sso?.['@Location'] === 'string' ? sso['@Location'] : null, certificates };
}
