// API 1 presenters: pure reshaping into API 1 shapes; every id is an API 1 id.
import { api1IdOf } from '../../core/http-face.ts';

/** An optional id in API 1's form. */
export const id1 = (uuid: string | null) => (uuid ? api1IdOf(uuid) : null);

