/**
 * The system prompt comes from a file (`--system FILE` or the config key `system`). Sessions
 * record its path and hash, never its text as a message (docs/design.md §20).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UserError, printable } from '../session/api/errors.js';
import type { LoadedSystemPrompt } from '../models/types.js';

export type { LoadedSystemPrompt } from '../models/types.js';

/** Longest system prompt accepted, in bytes: past this it is surely the wrong file. */
export const MAX_SYSTEM_PROMPT_BYTES = 1_000_000;

/**
 * Reads the system prompt at `file` (relative to `cwd`). A missing, unreadable, empty or huge
 * file is a UserError naming the path and what to do.
 */
export async function loadSystemPrompt(file: string, cwd: string): Promise<LoadedSystemPrompt> {
  const path = resolve(cwd, file);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : String(code ?? error);
    throw new UserError(`Cannot read the system prompt \`${printable(path, 200)}\`: ${why}.`, 'E_SYSTEM_PROMPT', 2, {
      to: 'Give a readable text file:',
      run: ['--system', 'FILE'],
      slash: { name: 'system', args: ['FILE'] },
    });
  }
  if (bytes.length > MAX_SYSTEM_PROMPT_BYTES) {
    throw new UserError(`The system prompt \`${printable(path, 200)}\` is over 1 MB: pass a smaller file with --system.`, 'E_SYSTEM_PROMPT');
  }
  const text = bytes.toString('utf8');
  if (text.trim() === '') {
    throw new UserError(`The system prompt \`${printable(path, 200)}\` is empty: write the prompt in it, or leave out --system.`, 'E_SYSTEM_PROMPT');
  }
  return { text, ref: { path, sha256: createHash('sha256').update(bytes).digest('hex') } };
}
