// Path references → typed EntityRefs: API 2 accepts URN, UUID or API 1 id; API 1 never URNs.
import { parseApi1Ref, parseApi2Ref, type EntityRef, type UrnType } from '../core/http-face.ts';

export type RefParser = (type: UrnType, ref: string) => EntityRef;

export const api2RefParser =
  (ns: string): RefParser =>
  (type, ref) =>
    parseApi2Ref(ns, type, ref);

export const api1RefParser: RefParser = (type, ref) => parseApi1Ref(type, ref);
