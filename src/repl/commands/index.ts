/**
 * Every slash command, listed explicitly (one loader, no directory scanning: docs/design.md §14).
 * `/help` and the "did you mean" suggestions are generated from this list.
 */
import type { SlashCommand } from '../types.js';
import { compact } from './compact.js';
import { copy } from './copy.js';
import { exportSession } from './export.js';
import { fork } from './fork.js';
import { help } from './help.js';
import { load } from './load.js';
import { model } from './model.js';
import { provider } from './provider.js';
import { quit } from './quit.js';
import { reset } from './reset.js';
import { retry } from './retry.js';
import { rewind } from './rewind.js';
import { save } from './save.js';
import { sessions } from './sessions.js';
import { status } from './status.js';
import { system } from './system.js';
import { title } from './title.js';
import { tree } from './tree.js';
import { uncompact } from './uncompact.js';

/** The built-in slash commands, in the order `/help` shows them. */
export const builtinCommands: readonly SlashCommand[] = [
  help, sessions, save, load, fork, rewind, tree, title, status, reset, compact, uncompact, retry, copy, exportSession, model, provider, system, quit,
];
