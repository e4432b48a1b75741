import { readFile } from 'node:fs/promises';
import { UserError } from '../../session/api/errors.js';
import { errno } from '../../util/errno.js';

/** Reads a JSON config object: `{}` when missing; a damaged file is a `UserError` naming it. */
export async function readConfigFile(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (errno(err) === 'ENOENT') return {};
    throw err;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UserError(`Config file \`${path}\` is not valid JSON (${(err as Error).message}). Fix or remove it.`, 'E_CONFIG');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UserError(`Config file \`${path}\` must hold a JSON object. Fix or remove it.`, 'E_CONFIG');
  }
  return value as Record<string, unknown>;
}
