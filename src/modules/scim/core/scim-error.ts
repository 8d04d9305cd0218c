// A SCIM protocol error (RFC 7644 §3.12): its HTTP status and, for 400 and 409, the scimType
// that tells the IdP what was wrong. The SCIM surface renders it as
// `urn:ietf:params:scim:api:messages:2.0:Error`.
export type ScimType =
  | 'invalidFilter' | 'tooMany' | 'uniqueness' | 'mutability' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue' | 'sensitive';

export class ScimError extends Error {
  override name = 'ScimError';
  readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 501;
  readonly scimType: ScimType | null;
  constructor(status: ScimError['status'], detail: string, scimType: ScimType | null = null) {
    super(detail);
    this.status = status;
    this.scimType = scimType;
  }
}

export const scimInvalid = (detail: string, scimType: ScimType = 'invalidValue') => new ScimError(400, detail, scimType);
export const scimNotFound = (what: string, id: string) => new ScimError(404, `${what} ${id} not found`);
