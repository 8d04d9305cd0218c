// What the OpenAPI documents say about each operation beyond its schema: one table per
// API (api2/operation-docs.ts, api1/operation-docs.ts), keyed "METHOD /path" as the
// documents spell paths. Facts from the spec, CONTRACT and the code: each permission
// named is the one the use case checks (src/core/…), each code one it can answer.

export interface OperationDoc {
  /** What the operation does. */
  does: string;
  /** The permission the code checks, in words naming it; absent: any signed-in user (or none, for public operations). */
  permission?: string;
  /** A public operation: no access token (the token endpoints). */
  public?: true;
  /** The errors it answers besides 401, 429 and body-level ones: "status code" each, with a short condition where useful. */
  errors: readonly string[];
}

export type OperationTable = Readonly<Record<string, OperationDoc>>;

/** The Markdown description of an operation. */
export function describeOperation(d: OperationDoc): string {
  const parts = [d.does];
  const permission = d.permission ?? (d.public ? 'none: a public operation, without an access token.' : 'none beyond a valid access token.');
  parts.push(`**Permission:** ${permission}`);
  if (d.errors.length) parts.push(`**Errors:** ${d.errors.map((e) => `\`${e}\``).join(', ')}.`);
  return parts.join('\n\n');
}
