/**
 * The session browser for any host with a terminal: loaded when it opens (it brings
 * `@inquirer/core`), never on the way to a prompt.
 */
import type { BrowseOptions, BrowseResult } from '../browser/browse.js';

export type { BrowseOptions, BrowseResult };

/** Opens the full-screen browser on `options.input`/`output` and resolves to what was chosen and what its actions said. */
export async function openBrowser(options: BrowseOptions): Promise<BrowseResult> {
  return (await import('../browser/browse.js')).browseSessions(options);
}
