/** Subcommands that `chatkeep --help` shows as one line each group, and what the trash's help adds. */
import type { SubcommandGroup } from './subcommand.js';

export const TRASH_GROUP: SubcommandGroup = { summary: 'the trash (see chatkeep sessions --help)' };
export const SHARING_GROUP: SubcommandGroup = { args: ' ID', summary: "share a session on a team's server (see chatkeep sessions --help)" };

/** Said below the usage of the subcommands that move or delete sessions. */
export const TRASH_NOTE = 'Nothing is deleted except by empty-trash, and a deleted ID is never used again.';
