/**
 * Every slash command, listed explicitly (STYLE: one loader, no directory scanning).
 * `/help` and the "did you mean" suggestions are generated from this list.
 */
import type { SlashCommand } from '../src/repl/types.js';
import { help } from './help.js';
import { load } from './load.js';
import { quit } from './quit.js';
import { reset } from './reset.js';
import { save } from './save.js';
import { sessions } from './sessions.js';

/** The built-in slash commands, in the order `/help` shows them. */
export const builtinCommands: readonly SlashCommand[] = [help, sessions, save, load, reset, quit];
