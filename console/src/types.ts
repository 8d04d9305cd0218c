// The API 2 shapes the console reads, taken from the SDK's types, which `npm run sdk:types`
// generates from the service's route schemas (packages/sdk/src/generated/): a field the
// service renames or drops fails `tsc` here instead of showing `undefined` on screen.
// Types only (`import type`): nothing of the SDK's Node code reaches the browser bundle.
// Imported by path, not through `@scanbase/sdk`: the types are the ones of this checkout
// even where node_modules links the workspace package to another one.
import type { paths as Api2Paths } from '../../packages/sdk/src/generated/api2.ts';

type Account_ = '/api/2/accounts/{accountRef}';
type Project_ = `${Account_}/projects/{projectRef}`;

/** The JSON body of a path's successful answer (200, else 201, else 202). */
type Answer<P extends keyof Api2Paths, M extends 'get' | 'post' | 'put'> = Api2Paths[P][M] extends { responses: infer R }
  ? R extends { 200: { content: { 'application/json': infer T } } }
    ? T
    : R extends { 201: { content: { 'application/json': infer T } } }
      ? T
      : R extends { 202: { content: { 'application/json': infer T } } }
        ? T
        : never
  : never;
/** One item of a list answer. */
type Item<T> = T extends readonly (infer U)[] ? U : never;

export type Account = Answer<Account_, 'get'>;
export type Subscription = Account['subscriptions'][number];
export type SubscriptionUsage = Answer<`${Account_}/subscriptions/{subscriptionRef}/usage`, 'get'>;
export type Role = Item<Answer<`${Account_}/roles`, 'get'>>;
export type Group = Item<Answer<`${Account_}/groups`, 'get'>>;
export type User = Item<Answer<`${Account_}/users`, 'get'>>;
export type Project = Answer<Project_, 'get'>;
export type Workzone = Answer<`${Project_}/workzones/{workzoneRef}`, 'get'>;
export type MemberAccess = Item<Answer<`${Project_}/members/access`, 'get'>>;
export type FileItem = Item<Answer<`${Project_}/files`, 'get'>>;
export type Vector3 = NonNullable<FileItem['translation']>;
export type Crop = Item<Answer<`${Project_}/crops`, 'get'>>;
export type Annotation = Item<Answer<`${Project_}/annotations`, 'get'>>;
export type Measurement = Item<Answer<`${Project_}/measurements`, 'get'>>;
export type TagList = Answer<`${Project_}/tag-lists/{tagListRef}`, 'get'>;
export type Tag = Item<Answer<`${Project_}/tag-lists/{tagListRef}/tags`, 'get'>>;
export type TagData = Tag['data'];
/** Our extension: a work-zone copy as its requester follows it (docs/projects.md "Copy"). */
export type CopyStatus = Answer<`${Project_}/workzones/{workzoneRef}/copy/{jobId}`, 'get'>;
/** Our extension: a fact about the deployment the account's people should see (GET …/notices). */
export type AccountNotice = Item<Answer<`${Account_}/notices`, 'get'>>;
/** Our extension: one of the caller's pending invitations to an account (GET /api/2/me/invitations). */
export type MyInvitation = Item<Answer<'/api/2/me/invitations', 'get'>>;
/** Our extension: the account's single sign-on (GET …/sso, docs/identity.md): provider, domains, mapping rules. */
export type SsoSettings = Answer<`${Account_}/sso`, 'get'>;
export type SsoProvider = NonNullable<SsoSettings['provider']>;
export type SsoDomain = SsoSettings['domains'][number];
export type SsoRule = SsoSettings['rules'][number];
/** The body of PUT …/sso/provider (the client secret only goes in). */
export type SsoProviderBody = NonNullable<Api2Paths[`${Account_}/sso/provider`]['put']['requestBody']>['content']['application/json'];
/** The body of POST …/sso/rules and PUT …/sso/rules/{ruleId}. */
export type SsoRuleBody = NonNullable<Api2Paths[`${Account_}/sso/rules`]['post']['requestBody']>['content']['application/json'];
/** A claimed domain: its verification token, answered once. */
export type ClaimedSsoDomain = Answer<`${Account_}/sso/domains`, 'post'>;
/** Our extension: whether the account has a SCIM token (never the token), and the token when made (shown once). */
export type ScimTokenInfo = Answer<`${Account_}/scim/token`, 'get'>;
export type NewScimToken = Answer<`${Account_}/scim/token`, 'post'>;
/** The vendor's integrations (docs/integrations.md): the account's Konekt hubs, a project's configurations, the caller's Autodesk connection. */
export type AccountIntegrations = Answer<`${Account_}/integrations`, 'get'>;
export type KonektHub = AccountIntegrations['konekt'][number];
export type ProjectIntegrations = Answer<`${Project_}/integrations`, 'get'>;
export type AutodeskConnection = Answer<'/api/2/integrations/autodesk/connection', 'get'>;
/** An annotation's link at a third party, with our extension fields `status` and `failure`. */
export type AnnotationLink = Annotation['integrations'][number];
