/** How a session's `importSource` or `importedFrom` reads for people (`sessions show`, exports). Pure. */
import type { ImportSource } from '../session/api/data.js';
import { PEER_NAMES, type PeerTool } from './types.js';

/** `Claude Code session 7a10…, /home/me/.claude/projects/…/7a10….jsonl`, or a chatkeep export's old ID as it is. */
export function originText(from: string | ImportSource): string {
  if (typeof from === 'string') return from;
  const tool = PEER_NAMES[from.tool as PeerTool] ?? from.tool;
  const kept = from.kept?.length ? ` (${from.kept.length === 1 ? '1 source line kept as it was' : `${from.kept.length} source lines kept as they were`})` : '';
  return `${tool} session ${from.id}, ${from.path}${kept}`;
}
