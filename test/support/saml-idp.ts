// A real SAML 2.0 identity provider for the tests, on loopback: GET /sso takes an AuthnRequest
// by the HTTP-Redirect binding (inflated, its ID and ACS URL read), shows a login form (any
// login name signs in as that user; the attributes come from `users`, which a test may change
// between sign-ins), and answers a page whose form POSTs the signed SAMLResponse to the ACS
// URL (the HTTP-POST binding; the test clicks its button). The assertion is signed with
// xml-crypto (the library node-saml verifies with) under fixtures/saml/idp-key.pem, or under
// another key (`forge`), or made already expired (`expired`). `responses` keeps every
// SAMLResponse sent, for replays. The key pairs in test/fixtures/saml are for tests only.
import http from 'node:http';
import zlib from 'node:zlib';
import fs from 'node:fs';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SignedXml } from 'xml-crypto';

const FIXTURES = new URL('../fixtures/saml/', import.meta.url);
export const SAML_IDP_CERT = fs.readFileSync(new URL('idp-cert.pem', FIXTURES), 'utf8');
const IDP_KEY = fs.readFileSync(new URL('idp-key.pem', FIXTURES), 'utf8');
const OTHER_KEY = fs.readFileSync(new URL('other-key.pem', FIXTURES), 'utf8');

export interface SamlUser {
  email: string;
  firstName?: string;
  lastName?: string;
  groups?: string[];
}

export interface TestSamlIdp {
  entityId: string;
  ssoUrl: string;
  /** The IdP's metadata XML (entity ID, SSO URL, certificate). */
  metadataXml: string;
  users: Map<string, SamlUser>;
  /** Every SAMLResponse posted (base64), oldest first. */
  responses: string[];
  close(): Promise<void>;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A SAML Response to `request`, its assertion signed by `key`. */
export function samlResponse(p: {
  entityId: string; acsUrl: string; audience: string; inResponseTo: string | null; user: SamlUser; key?: string;
  notOnOrAfterMs?: number; assertionId?: string;
}): string {
  const now = Date.now();
  const until = iso(p.notOnOrAfterMs ?? now + 5 * 60_000);
  const assertionId = p.assertionId ?? `_a${crypto.randomBytes(16).toString('hex')}`;
  const irt = p.inResponseTo ? ` InResponseTo="${esc(p.inResponseTo)}"` : '';
  const attr = (name: string, values: string[]) =>
    `<saml:Attribute Name="${esc(name)}">${values.map((v) => `<saml:AttributeValue>${esc(v)}</saml:AttributeValue>`).join('')}</saml:Attribute>`;
  const assertion =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${iso(now)}">` +
    `<saml:Issuer>${esc(p.entityId)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${esc(`id-${p.user.email}`)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${until}" Recipient="${esc(p.acsUrl)}"${irt}/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(now - 60_000)}" NotOnOrAfter="${until}"><saml:AudienceRestriction><saml:Audience>${esc(p.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="${assertionId}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement>` +
    attr('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', [p.user.email]) +
    (p.user.firstName ? attr('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname', [p.user.firstName]) : '') +
    (p.user.lastName ? attr('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname', [p.user.lastName]) : '') +
    (p.user.groups?.length ? attr('http://schemas.microsoft.com/ws/2008/06/identity/claims/groups', p.user.groups) : '') +
    `</saml:AttributeStatement></saml:Assertion>`;
  const sig = new SignedXml({
    privateKey: p.key ?? IDP_KEY,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  sig.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(assertion, { location: { reference: "//*[local-name(.)='Issuer']", action: 'after' } });
  const xml =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_r${crypto.randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${iso(now)}" Destination="${esc(p.acsUrl)}"${irt}>` +
    `<saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${esc(p.entityId)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    sig.getSignedXml() + `</samlp:Response>`;
  return Buffer.from(xml).toString('base64');
}

/** The AuthnRequest of a redirect-binding URL: its ID and ACS URL. */
export function readAuthnRequest(url: URL): { id: string; acsUrl: string; issuer: string } {
  const xml = zlib.inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
  const id = /\sID="([^"]+)"/.exec(xml)?.[1];
  const acsUrl = /AssertionConsumerServiceURL="([^"]+)"/.exec(xml)?.[1];
  const issuer = /<(?:saml:)?Issuer[^>]*>([^<]+)</.exec(xml)?.[1];
  if (!id || !acsUrl || !issuer) throw new Error(`not an AuthnRequest: ${xml.slice(0, 200)}`);
  return { id, acsUrl, issuer };
}

export async function startTestSamlIdp(o: { forge?: boolean; expired?: boolean } = {}): Promise<TestSamlIdp> {
  const users = new Map<string, SamlUser>();
  const responses: string[] = [];
  const pending = new Map<string, { id: string; acsUrl: string; issuer: string }>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', entityId);
    const page = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><body>${body}</body></html>`);
    };
    if (req.method === 'GET' && url.pathname === '/sso') {
      if (!url.searchParams.get('SAMLRequest')) return page(200, '<p>Test SAML IdP</p>');
      let request;
      try {
        request = readAuthnRequest(url);
      } catch (e) {
        return page(400, esc((e as Error).message));
      }
      const key = crypto.randomBytes(8).toString('hex');
      pending.set(key, request);
      return page(200, `<form method="post" action="/login"><input type="hidden" name="key" value="${key}"><input name="login"><button type="submit">Sign in</button></form>`);
    }
    if (req.method === 'POST' && url.pathname === '/login') {
      let body = '';
      req.on('data', (c: Buffer) => { body += c.toString(); });
      req.on('end', () => {
        const form = new URLSearchParams(body);
        const request = pending.get(form.get('key') ?? '');
        const user = users.get(form.get('login') ?? '');
        if (!request || !user) return page(400, 'unknown request or user');
        const response = samlResponse({
          entityId, acsUrl: request.acsUrl, audience: request.issuer, inResponseTo: request.id, user,
          key: o.forge ? OTHER_KEY : IDP_KEY, notOnOrAfterMs: o.expired ? Date.now() - 10 * 60_000 : undefined,
        });
        responses.push(response);
        return page(200, `<form method="post" action="${esc(request.acsUrl)}"><input type="hidden" name="SAMLResponse" value="${response}"><button type="submit" id="post-to-sp">Continue</button></form>`);
      });
      return undefined;
    }
    return page(404, 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const entityId = `http://localhost:${(server.address() as AddressInfo).port}`;
  const ssoUrl = `${entityId}/sso`;
  const certBody = SAML_IDP_CERT.replace(/-----[A-Z ]+-----|\s/g, '');
  const metadataXml =
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}">` +
    `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
    `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certBody}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
    `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ssoUrl}"/>` +
    `</md:IDPSSODescriptor></md:EntityDescriptor>`;
  return {
    entityId, ssoUrl, metadataXml, users, responses,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
