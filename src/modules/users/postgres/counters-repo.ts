// The windowed counters of the invitation caps (the users module's; its port: ../core/ports.ts CountersRepo).
import type { CountersRepo } from '../core/ports.ts';
import type { Sql } from '../../../adapters/postgres/sql.ts';

export function countersRepo(sql: Sql): CountersRepo {
  return {
    async charge(key, amount, p) {
      if (amount > p.max) {
        const rows = await sql.query<{ windowEnd: Date }>('SELECT window_end AS "windowEnd" FROM windowed_counters WHERE key = $1 AND window_end > $2', [key, p.now]);
        return { charged: false, windowEnd: rows[0]?.windowEnd ?? p.windowEnd };
      }
      // A window over ($2 = now at or past its end) restarts with this charge; otherwise the
      // charge is added only when it stays within max, and the statement answers no row.
      const rows = await sql.query<{ windowEnd: Date }>(
        `INSERT INTO windowed_counters AS c (key, window_start, window_end, used) VALUES ($1, $2, $3, $4)
         ON CONFLICT (key) DO UPDATE SET
           window_start = CASE WHEN c.window_end <= $2 THEN $2 ELSE c.window_start END,
           window_end = CASE WHEN c.window_end <= $2 THEN $3 ELSE c.window_end END,
           used = CASE WHEN c.window_end <= $2 THEN $4 ELSE c.used + $4 END
         WHERE c.window_end <= $2 OR c.used + $4 <= $5
         RETURNING window_end AS "windowEnd"`,
        [key, p.now, p.windowEnd, amount, p.max],
      );
      if (rows[0]) return { charged: true, windowEnd: rows[0].windowEnd };
      const held = await sql.query<{ windowEnd: Date }>('SELECT window_end AS "windowEnd" FROM windowed_counters WHERE key = $1', [key]);
      return { charged: false, windowEnd: held[0]?.windowEnd ?? p.windowEnd };
    },
  };
}
