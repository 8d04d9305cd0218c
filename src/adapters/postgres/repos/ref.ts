// A lookup by reference: internal UUID or API 1 id.
export function byRefClause(ref: { uuid: string } | { api1Id: string }, alias = ''): [string, string] {
  const p = alias ? `${alias}.` : '';
  return 'uuid' in ref ? [`${p}id = $2`, ref.uuid] : [`${p}api1_id = $2`, ref.api1Id];
}
