// A browser's side of an SP-initiated SAML sign-in, request by request against an app in the
// process (test/http): the sign-in page's "Continue with" for an e-mail of a domain that
// signs in through the account's IdP, the AuthnRequest it is redirected with, and the
// IdP's POST of a response to the account's ACS.
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { header, hiddenFieldsOf, injectTransport, pkcePair, randomState, authorizePath, UserAgent } from './oauth-client.ts';
import { readAuthnRequest } from './saml-idp.ts';

/** A browser at the sign-in page: "Continue with" posted; answers the agent and the answer (a 303 to the IdP when SSO applies). */
export async function startSignIn(app: FastifyInstance, email: string) {
  const agent = new UserAgent(injectTransport(app));
  const { challenge } = pkcePair();
  const page = await agent.get(authorizePath({ redirectUri: '/', state: randomState(), codeChallenge: challenge }));
  assert.equal(page.status, 200);
  const started = await agent.postForm('/sso/start', { ...hiddenFieldsOf(page.body), email });
  return { agent, started };
}

/** startSignIn, checked to reach the IdP at `ssoUrl`: the agent and the AuthnRequest it carries. */
export async function requestAtIdp(app: FastifyInstance, email: string, ssoUrl: string) {
  const { agent, started } = await startSignIn(app, email);
  assert.equal(started.status, 303, started.body);
  const location = new URL(header(started, 'location')!);
  assert.equal(`${location.origin}${location.pathname}`, ssoUrl);
  return { agent, request: readAuthnRequest(location) };
}

/** The IdP's form POST of a response to the account's ACS, as the agent's browser sends it. */
export const postAcs = (agent: UserAgent, account: string, response: string) => agent.postForm(`/sso/saml/${account}/acs`, { SAMLResponse: response });
