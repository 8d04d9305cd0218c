// How the console writes sizes and counts.

/** Bytes in B, KiB, MiB, GiB or TiB. */
export const formatSize = (n: number): string =>
  n < 1024
    ? `${n} B`
    : n < 1024 ** 2
      ? `${(n / 1024).toFixed(1)} KiB`
      : n < 1024 ** 3
        ? `${(n / 1024 ** 2).toFixed(1)} MiB`
        : n < 1024 ** 4
          ? `${(n / 1024 ** 3).toFixed(2)} GiB`
          : `${(n / 1024 ** 4).toFixed(2)} TiB`;

/** "1 file", "2 files". */
export const count = (n: number, what: string): string => `${n.toLocaleString('en')} ${what}${n === 1 ? '' : 's'}`;
