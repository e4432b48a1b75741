/** An SQL identifier (a role name) quoted as PostgreSQL reads it: `"ann"`, `"o""brien"`. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** An SQL string literal: `'it''s'`. */
export function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
