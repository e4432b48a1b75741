/**
 * A conversation read from another tool's session file (Claude Code, Codex CLI, Gemini CLI),
 * in chatkeep's terms: what `sessions import --from` turns into a session. Pure data.
 */
import type { KeptLine, Message } from '../session/api/data.js';

/** The tools whose sessions chatkeep imports. */
export const PEER_TOOLS = ['claude', 'codex', 'gemini'] as const;
export type PeerTool = (typeof PEER_TOOLS)[number];

/** The tools' names as people know them. */
export const PEER_NAMES: Record<PeerTool, string> = { claude: 'Claude Code', codex: 'Codex CLI', gemini: 'Gemini CLI' };

export interface PeerConversation {
  tool: PeerTool;
  /** The conversation's ID in the tool. */
  id: string;
  /** The file it was read from. */
  path: string;
  /** The working directory it was held in, when the file records it. */
  cwd: string | undefined;
  /** Its title in the tool (null: none; the first user message stands in). */
  title: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** The model of its last reply, when recorded. */
  model: string | null;
  /** The git branch it was held on, when recorded. */
  branch: string | null;
  messages: Message[];
  /** Lines chatkeep has no place for, as they were. */
  kept: KeptLine[];
  /** How many lines of the file were read. */
  lines: number;
  /**
   * The conversation it is a fork of, where the file says so: that one's ID in the tool, and how
   * many of `messages` are that one's (the fork point).
   */
  forkedFrom?: { id: string; at: number };
  /**
   * Codex CLI's forks record only their own turns: they begin with the first `lines` lines of
   * conversation `id`'s file, which read-peer.ts puts in front (and then sets `forkedFrom`).
   */
  history?: { id: string; lines: number };
}

/** A session file that cannot be imported: `reason` says why, in a few words. */
export class PeerFileError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'PeerFileError';
  }
}
