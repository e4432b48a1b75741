/**
 * A conversation from another tool as a chatkeep session snapshot: closed, its messages and
 * token totals, the assistant it talked to where chatkeep has that provider, its git branch,
 * and `importSource` (with the lines kept as they were). Redaction happens where it is stored.
 * Pure.
 */
import { hostname } from 'node:os';
import { blankSnapshot } from '../session/format/blank.js';
import { statsOf } from '../session/model/stats.js';
import type { ProviderRecord, SessionSnapshot } from '../session/api/data.js';
import type { PeerConversation, PeerTool } from './types.js';

/** The chatkeep provider each tool's models are served by (Gemini: none; `echo` until one is chosen). */
const PROVIDER: Record<PeerTool, string> = { claude: 'anthropic', codex: 'openai', gemini: 'echo' };

/** The session ID an imported conversation gets: the tool's name and its own ID (`claude-7a10…`); `n` > 1 for continuations. */
export function importedId(tool: PeerTool, sourceId: string, n = 1): string {
  const safe = sourceId.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 100);
  return n === 1 ? `${tool}-${safe}` : `${tool}-${safe}.${n}`;
}

export function peerSnapshot(
  c: PeerConversation,
  target: { id: string; project: string; toolVersion: string; title?: string | null; parent?: { id: string; at: number }; journalSeq?: number },
): SessionSnapshot {
  const provider: ProviderRecord = { name: PROVIDER[c.tool], model: PROVIDER[c.tool] === 'echo' ? null : c.model };
  const title = target.title !== undefined && target.title !== null ? target.title : c.title ?? c.messages.find((m) => m.role === 'user')?.content ?? null;
  return {
    ...blankSnapshot(target.id, target.project, c.createdAt, target.toolVersion),
    title,
    updatedAt: c.updatedAt,
    status: 'closed',
    host: hostname(),
    pid: process.pid,
    provider,
    messages: c.messages,
    stats: statsOf(c.messages),
    journalSeq: target.journalSeq ?? 0,
    ...(c.branch !== null ? { git: { root: c.cwd ?? target.project, branch: c.branch, head: null } } : {}),
    ...(target.parent ? { parentId: target.parent.id, forkPoint: target.parent.at } : {}),
    importSource: {
      tool: c.tool,
      id: c.id,
      path: c.path,
      lines: c.lines,
      messages: c.messages.length,
      ...(c.kept.length > 0 ? { kept: c.kept } : {}),
    },
  };
}
