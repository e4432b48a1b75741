/**
 * How many rows a query reads of some tables, from the server's own account of running it
 * (`EXPLAIN (ANALYZE, FORMAT JSON)`): for tests that a read costs what its reader sees, not what
 * the server holds. A row counts whether it was returned or dropped by a filter or a recheck.
 */
import type pg from 'pg';

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Rows the plan's scans of `tables` read, subplans included. */
function rowsRead(node: PlanNode, tables: ReadonlySet<string>): number {
  const own = node['Relation Name'] && tables.has(node['Relation Name'])
    ? ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) * (node['Actual Loops'] ?? 1)
    : 0;
  return own + (node.Plans ?? []).reduce((n, p) => n + rowsRead(p, tables), 0);
}

/** Runs `sql` under EXPLAIN ANALYZE on `client` (as its role) and counts the rows it read of `tables`. */
export async function explainRowsRead(client: pg.Client, sql: string, params: unknown[], tables: ReadonlySet<string>): Promise<number> {
  const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
  return rowsRead(rows[0]!['QUERY PLAN'][0].Plan, tables);
}
