/**
 * Every `chatkeep sessions` subcommand, listed explicitly (one loader, as commands/index.ts
 * lists the slash commands: docs/design.md §16). Their order is the order of `--help`; the option table's help lines,
 * the parser's checks, flag placement and the docs checks are made from this list.
 */
import { browse } from './browse.js';
import { copy } from './copy.js';
import { diff } from './diff.js';
import { doctor } from './doctor.js';
import { emptyTrash } from './empty-trash.js';
import { exportSession } from './export.js';
import { fork } from './fork.js';
import { importSessions } from './import.js';
import { list } from './list.js';
import { prune } from './prune.js';
import { restore } from './restore.js';
import { rm } from './rm.js';
import { search } from './search.js';
import { share } from './share.js';
import { show } from './show.js';
import type { SessionsSubcommand } from './subcommand.js';
import { trash } from './trash.js';
import { tree } from './tree.js';
import { unshare } from './unshare.js';

export const SESSIONS_SUBCOMMANDS: readonly SessionsSubcommand[] = [
  browse, list, show, tree, diff, fork, search, exportSession, importSessions, copy, rm, trash, restore, prune, emptyTrash, doctor, share, unshare,
];

/** The subcommand named `name`, if there is one. */
export function sessionsSubcommand(name: string | undefined): SessionsSubcommand | undefined {
  return SESSIONS_SUBCOMMANDS.find((subcommand) => subcommand.name === name);
}
