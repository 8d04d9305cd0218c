// The spatial references a project may use (GET /api/2/values/spatial-references):
// common geographic systems and the projected systems surveyors use most.
export interface SpatialReferenceValue {
  authName: string;
  code: string;
  name: string;
  type: 'geographic 2D' | 'projected' | 'geocentric';
  deprecated: boolean;
}

const entry = (code: number | string, name: string, type: SpatialReferenceValue['type'] = 'projected'): SpatialReferenceValue => ({
  authName: 'EPSG', code: String(code), name, type, deprecated: false,
});

function range(from: number, to: number, name: (i: number, code: number) => string): SpatialReferenceValue[] {
  const out: SpatialReferenceValue[] = [];
  for (let code = from, i = 1; code <= to; code++, i++) out.push(entry(code, name(i, code)));
  return out;
}

export const SPATIAL_REFERENCES: readonly SpatialReferenceValue[] = [
  entry(4326, 'WGS 84', 'geographic 2D'),
  entry(4258, 'ETRS89', 'geographic 2D'),
  entry(4269, 'NAD83', 'geographic 2D'),
  entry(4978, 'WGS 84 (geocentric)', 'geocentric'),
  entry(3857, 'WGS 84 / Pseudo-Mercator'),
  entry(2154, 'RGF93 v1 / Lambert-93'),
  entry(27700, 'OSGB36 / British National Grid'),
  entry(2056, 'CH1903+ / LV95'),
  entry(28992, 'Amersfoort / RD New'),
  entry(31370, 'BD72 / Belgian Lambert 72'),
  entry(3035, 'ETRS89-extended / LAEA Europe'),
  entry(3006, 'SWEREF99 TM'),
  entry(2193, 'NZGD2000 / New Zealand Transverse Mercator 2000'),
  entry(3112, 'GDA94 / Geoscience Australia Lambert'),
  entry(31467, 'DHDN / 3-degree Gauss-Kruger zone 3'),
  entry(5514, 'S-JTSK / Krovak East North'),
  entry(2180, 'ETRF2000-PL / CS92'),
  entry(3794, 'Slovenia 1996 / Slovene National Grid'),
  entry(6677, 'JGD2011 / Japan Plane Rectangular CS IX'),
  ...range(25828, 25838, (_i, c) => `ETRS89 / UTM zone ${c - 25800}N`),
  ...range(32601, 32660, (i) => `WGS 84 / UTM zone ${i}N`),
  ...range(32701, 32760, (i) => `WGS 84 / UTM zone ${i}S`),
  ...range(26910, 26919, (_i, c) => `NAD83 / UTM zone ${c - 26900}N`),
  ...range(7846, 7859, (_i, c) => `GDA2020 / MGA zone ${c - 7800}`),
];

const KEY = (authName: string, code: string) => `${authName.toUpperCase()}:${code}`;
const BY_KEY = new Map(SPATIAL_REFERENCES.map((s) => [KEY(s.authName, s.code), s]));

export const findSpatialReference = (authName: string, code: string): SpatialReferenceValue | undefined =>
  BY_KEY.get(KEY(authName, code));
