// The fuzz tests' seed and sizes: fixed in `npm test` (the same cases every run, so a
// failure is reproducible and the run's length known); `npm run fuzz -- --seed S --count N`
// (scripts/fuzz.mjs) sets FUZZ_SEED and FUZZ_COUNT for longer runs of other cases.
// fast-check prints the seed and the failing case's path with every counterexample.

/** The seed of every property: FUZZ_SEED, else a fixed one. */
export const FUZZ_SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261127;

/** The number of cases of a property: FUZZ_COUNT, else the property's own (bounded) count. */
export const runs = (normal: number): number => (process.env.FUZZ_COUNT ? Number(process.env.FUZZ_COUNT) : normal);
