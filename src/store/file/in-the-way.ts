/**
 * The file standing where chatkeep keeps a folder, on the way to `path` (`--home` naming a file,
 * a file named `ids` or `projects` in the data directory): what ENOTDIR, or an EEXIST from
 * making a folder, means for the user. Undefined when every part that exists is a folder.
 */
import { statSync } from 'node:fs';
import { resolve, sep } from 'node:path';

export function fileInTheWay(path: string): string | undefined {
  const parts = resolve(path).split(sep);
  for (let i = 2; i <= parts.length; i++) {
    const at = parts.slice(0, i).join(sep);
    let folder: boolean;
    try {
      folder = statSync(at).isDirectory();
    } catch {
      return undefined;
    }
    if (!folder) return at;
  }
  return undefined;
}

/** What to say of `file`, standing where chatkeep keeps a folder. */
export function notAFolder(file: string): string {
  return `\`${file}\` is a file, where chatkeep keeps a folder. Move that file away, or choose another data directory with --home or CHATKEEP_HOME`;
}
