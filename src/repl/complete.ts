/**
 * Tab completion: slash command names, and session IDs after `/load `.
 */
import type { SlashCommand } from './types.js';

/** Completes `line`; `listIds` is only called after `/load `. Returns readline's `[hits, replaced part]`. */
export async function completeLine(
  line: string,
  commands: readonly SlashCommand[],
  listIds: () => Promise<string[]>,
): Promise<[string[], string]> {
  const load = /^\/(load|resume)\s+(\S*)$/i.exec(line);
  if (load) {
    const partial = load[2] ?? '';
    const ids = await listIds();
    return [ids.filter((id) => id.startsWith(partial)), partial];
  }
  if (/^\/\S*$/.test(line)) {
    const names = commands.flatMap((c) => [c.name, ...(c.aliases ?? [])]).filter((n) => /^[a-z]/.test(n));
    const hits = names.map((n) => `/${n}`).filter((n) => n.startsWith(line.toLowerCase()));
    return [hits.length === 1 ? [`${hits[0]} `] : hits, line];
  }
  return [[], line];
}
