/**
 * What a side's appends cost the server's write-ahead log: records, bytes and full-page images
 * per append, and WAL flushes (fsyncs) per append, the group commit that 200 writers share. Bytes
 * are the insert position's advance (exact); records, full-page images and flushes are the
 * server's cumulative statistics, which a backend reports when it goes idle, but no sooner than a
 * second after its last report, and then only after ten seconds idle: read once the round's
 * backends have had those ten (read after a second, chatkeep's records an append read 3.8 where
 * its statements write 4).
 */
import type pg from 'pg';

export interface WalUse {
  records: number;
  bytes: number;
  fullPages: number;
  flushes: number;
}

/** An idle backend has reported its statistics within this long (PGSTAT_IDLE_INTERVAL, 10 s), with a margin. */
const REPORTED_MS = 10_500;

const WAL_SQL = `SELECT w.wal_records::float8 AS records, w.wal_fpi::float8 AS "fullPages",
    pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::float8 AS bytes,
    (SELECT coalesce(sum(fsyncs), 0)::float8 FROM pg_stat_io WHERE object = 'wal') AS flushes
  FROM pg_stat_wal w`;

/** The counters as the server has them now. */
export async function walNow(admin: pg.Client): Promise<WalUse> {
  return (await admin.query<WalUse>(WAL_SQL)).rows[0]!;
}

/** The counters once every backend has reported what it did before now. */
export async function walSettled(admin: pg.Client): Promise<WalUse> {
  await new Promise((resolve) => setTimeout(resolve, REPORTED_MS));
  return walNow(admin);
}

export const NO_WAL: WalUse = { records: 0, bytes: 0, fullPages: 0, flushes: 0 };

/** `total` plus what was used from `before` to `after`. */
export function addWal(total: WalUse, before: WalUse, after: WalUse): WalUse {
  const sum = (k: keyof WalUse): number => total[k] + after[k] - before[k];
  return { records: sum('records'), bytes: sum('bytes'), fullPages: sum('fullPages'), flushes: sum('flushes') };
}

/** `total` per one of `appends`. */
export function walPer(total: WalUse, appends: number): WalUse {
  return { records: total.records / appends, bytes: total.bytes / appends, fullPages: total.fullPages / appends, flushes: total.flushes / appends };
}

/** As a row's note says it: `12.0 records, 1,020 bytes, 0.05 full pages, 0.10 flushes`. */
export const walNote = (w: WalUse): string =>
  `${w.records.toFixed(1)} records, ${Math.round(w.bytes)} bytes, ${w.fullPages.toFixed(2)} full pages, ${w.flushes.toFixed(2)} flushes`;
