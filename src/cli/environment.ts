/** What the process gives every command about where sessions are kept (only cli.ts reads `process`). */
export interface StoreEnvironment {
  /** The data directory. */
  home: string;
  /** A PostgreSQL URL when the sessions are kept on a server (else the data directory `home`). */
  store?: string | undefined;
  cwd: string;
  env: Record<string, string | undefined>;
}
