/**
 * A server function whose query PostgreSQL plans once per server connection and keeps: the shape
 * of every function chatkeep reads or appends through (the listing, the append, search's match, a
 * resume, search's listing rows).
 *
 * Why a function: under row security a query is expensive to plan, not to run (every policy of
 * every table it touches is expanded into it), and a query sent as text is planned on every call.
 * A prepared statement does not help: the server plans its first five runs for their values, and
 * goes on doing so when that looks cheaper; and a named statement does not survive a
 * transaction-pooling pooler, which hands the server connection to others between calls
 * (docs/design.md §11). PL/pgSQL keeps each query's plan on the server connection, which the
 * pooler keeps open; `plan_cache_mode = force_generic_plan` makes that plan generic (for any
 * arguments) from the first call. The function runs as whoever calls it (never SECURITY DEFINER):
 * the same policies apply, checked by the same plan.
 *
 * A released migration's text never changes (test/unit/store/migrations-frozen.test.ts): this
 * writes each one's function exactly as it was written by hand, so that a change here is a
 * change of every released migration built with it, which that test refuses.
 */

/** One function: what varies between them; everything else is the shape above. */
export type KeptPlan = {
  /** `CREATE` (the default) or `CREATE OR REPLACE`. */
  create?: 'CREATE' | 'CREATE OR REPLACE';
  /** The function's name, schema-qualified (`chatkeep.listing`). */
  name: string;
  /** Its arguments, as in CREATE FUNCTION (`keys text[], newest integer`). */
  args: string;
  /** It writes: not STABLE. */
  writes?: boolean;
  /** Settings beyond the generic plan, as SET clauses (`SET jit = off`). */
  settings?: string;
  /** Its variables, as the lines of DECLARE (without the first line's indentation). */
  declare?: string;
  /** The statements between BEGIN and END (without the first line's indentation). */
  body: string;
  /** The dollar quote's tag around the body (`listing` for `$listing$`). */
  tag: string;
} & (
  /**
   * The columns of the rows it returns (`id text, title text`…). Their names are also PL/pgSQL
   * variables: `use_column` has such a name in a query mean the column.
   */
  | { columns: string; returns?: never }
  /** What it returns instead of rows (`bigint`). */
  | { returns: string; columns?: never }
);

/** The SQL that creates (or replaces) the function, as a migration holds it. */
export function keptPlanFunction(fn: KeptPlan): string {
  const returns = fn.columns === undefined ? fn.returns : `TABLE (${fn.columns})`;
  const settings = ['SET plan_cache_mode = force_generic_plan', ...(fn.settings === undefined ? [] : [fn.settings])].join(' ');
  const quote = `$${fn.tag}$`;
  return `
  ${fn.create ?? 'CREATE'} FUNCTION ${fn.name}(${fn.args}) RETURNS ${returns}
    LANGUAGE plpgsql ${fn.writes ? '' : 'STABLE '}${settings} AS ${quote}
${fn.columns === undefined ? '' : '    #variable_conflict use_column\n'}${fn.declare === undefined ? '' : `    DECLARE\n      ${fn.declare}\n`}    BEGIN
      ${fn.body}
    END
  ${quote};
`;
}
