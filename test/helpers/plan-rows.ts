/**
 * How many rows a query reads of some tables, from the server's own account of running it
 * (`EXPLAIN (ANALYZE, FORMAT JSON)`): for tests that a read costs what its reader sees, not what
 * the server holds. A row counts whether it was returned or dropped by a filter or a recheck.
 */
import type pg from 'pg';

interface PlanNode {
  'Relation Name'?: string;
  'Index Name'?: string;
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

/**
 * The entries the plan's scans of index `index` gave, over all their loops: what an index scan
 * costs, which the rows read do not show when another condition (a BitmapAnd) drops them.
 */
export function indexEntries(plan: { Plan: object }, index: string): number {
  const walk = (node: PlanNode): number =>
    (node['Index Name'] === index ? (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1) : 0) + (node.Plans ?? []).reduce((n, p) => n + walk(p), 0);
  return walk(plan.Plan as PlanNode);
}

/**
 * How many times `plans` (calledRowsRead's, as text) scanned `table`: each scan node's loops, so that
 * a lookup by key per row counts once a row.
 */
export function scansOf(plans: readonly string[], table: string): number {
  const node = new RegExp(`"Relation Name":"${table}"[^{}]*?"Actual Loops":(\\d+)`, 'g');
  return plans.reduce((n, p) => n + [...p.matchAll(node)].reduce((k, m) => k + Number(m[1]), 0), 0);
}

/** Runs `sql` under EXPLAIN ANALYZE on `client` (as its role) and counts the rows it read of `tables`. */
export async function explainRowsRead(client: pg.Client, sql: string, params: unknown[], tables: ReadonlySet<string>): Promise<number> {
  const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
  return rowsRead(rows[0]!['QUERY PLAN'][0].Plan, tables);
}

/**
 * Runs `sql` (a call of a server function) as `role` on `admin` (a superuser's connection, which
 * may load auto_explain) and counts the rows that the function's own queries read of `tables`,
 * from auto_explain's account of each as it ran: the plans the function keeps, not a plan made
 * for this call's values. Also gives those plans' text and the call's rows.
 */
export async function calledRowsRead<R extends pg.QueryResultRow>(
  admin: pg.Client,
  role: string,
  sql: string,
  params: unknown[],
  tables: ReadonlySet<string>,
): Promise<{ read: number; plans: string[]; rows: R[] }> {
  const notices: string[] = [];
  const heard = (n: { message?: string }): void => void notices.push(n.message ?? '');
  admin.on('notice', heard);
  try {
    await admin.query(`LOAD 'auto_explain'; SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on;
      SET auto_explain.log_analyze = on; SET auto_explain.log_format = 'json'; SET auto_explain.log_level = 'notice';
      SET client_min_messages = 'notice'; SET ROLE "${role}"`);
    const { rows } = await admin.query<R>(sql, params);
    await admin.query('RESET ROLE; RESET auto_explain.log_min_duration');
    // The function's own queries, not the call.
    const plans = notices.filter((n) => n.includes('"Plan"')).map((n) => JSON.parse(n.slice(n.indexOf('{'))) as { 'Query Text': string; Plan: PlanNode })
      .filter((p) => p['Query Text'] !== sql);
    return { read: plans.reduce((n, p) => n + rowsRead(p.Plan, tables), 0), plans: plans.map((p) => JSON.stringify(p)), rows };
  } finally {
    admin.off('notice', heard);
  }
}
