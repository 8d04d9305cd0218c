// Node's internal HTTP module, of which src/http/client-errors.ts reads only the indexes of
// the parser's callbacks (`trackRequests`); absent from @types/node.
declare module 'node:_http_common' {
  export const HTTPParser: { readonly kOnMessageBegin: number; readonly kOnHeadersComplete: number; readonly kOnExecute: number };
}
