import type { HostName } from '../repl/host.js';

/** What the process gives every command about where sessions are kept (only cli.ts reads `process`). */
export interface StoreEnvironment {
  /** The data directory. */
  home: string;
  /** A PostgreSQL URL when the sessions are kept on a server (else the data directory `home`). */
  store?: string | undefined;
  cwd: string;
  env: Record<string, string | undefined>;
  /** How chatkeep was started (`chatkeepHost`): every command it prints is written to run so (default `chatkeep …`). */
  host?: HostName | undefined;
}
