/** One entry point for the three formats. Pure. */
import { parseClaude } from './claude.js';
import { parseCodex } from './codex.js';
import type { Candidate } from './discover.js';
import { parseGemini } from './gemini.js';
import { isCheckpoint, parseGeminiCheckpoint } from './gemini-checkpoint.js';
import type { PeerConversation, PeerTool } from './types.js';

/** A tool's session file as a conversation; `PeerFileError` when it is not one. */
export function parsePeer(tool: PeerTool, text: string, file: Candidate, fileTime: Date, codexTitles?: ReadonlyMap<string, string>): PeerConversation {
  const clean = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (tool === 'claude') return parseClaude(clean, file.path, fileTime);
  if (tool === 'codex') return parseCodex(clean, file.path, fileTime, codexTitles);
  if (isCheckpoint(file.path)) return parseGeminiCheckpoint(clean, file.path, fileTime, file.cwd);
  return parseGemini(clean, file.path, fileTime, file.cwd);
}
