/**
 * Where each tool keeps its sessions, and which files `sessions import --from` reads: the
 * PATHs given (files, or folders searched for session files), else the tool's own store (its
 * home from its environment variable, as the tool itself reads it), narrowed to one project
 * unless every project is wanted.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { errno } from '../util/errno.js';
import { isCheckpoint } from './gemini-checkpoint.js';
import type { PeerTool } from './types.js';

/** One file to read, with what its folder says about it. */
export interface Candidate {
  path: string;
  /** The project directory the tool's folder names (Gemini: `.project_root`), when it does. */
  cwd?: string;
}

export interface DiscoverOptions {
  tool: PeerTool;
  paths: readonly string[];
  cwd: string;
  /** Every project's sessions, not only `cwd`'s (the tool's store only). */
  all: boolean;
  env: Record<string, string | undefined>;
  /** The user's home directory. */
  userHome: string;
}

/** The tool's store: `$CLAUDE_CONFIG_DIR` or `~/.claude`, `$CODEX_HOME` or `~/.codex`, `$GEMINI_CLI_HOME/.gemini` or `~/.gemini`. */
export function storeOf(tool: PeerTool, env: Record<string, string | undefined>, userHome: string): string {
  if (tool === 'claude') return env.CLAUDE_CONFIG_DIR?.trim() || join(userHome, '.claude');
  if (tool === 'codex') return env.CODEX_HOME?.trim() || join(userHome, '.codex');
  return join(env.GEMINI_CLI_HOME?.trim() || userHome, '.gemini');
}

/** The files to read, sorted; `missing`: PATHs that do not exist (each a failure to report). */
export async function discover(o: DiscoverOptions): Promise<{ files: Candidate[]; missing: string[]; store?: string }> {
  if (o.paths.length > 0) {
    const files: Candidate[] = [];
    const missing: string[] = [];
    for (const given of o.paths) {
      const path = resolve(o.cwd, given);
      const info = await stat(path).catch((err: unknown) => {
        if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') return undefined;
        throw err;
      });
      if (!info) missing.push(given);
      else if (info.isDirectory()) files.push(...(await withGeminiRoots(o.tool, (await walk(path)).filter((f) => isSessionFile(o.tool, f)))));
      else files.push(...(await withGeminiRoots(o.tool, [path])));
    }
    return { files, missing };
  }
  const store = storeOf(o.tool, o.env, o.userHome);
  const files = o.tool === 'claude' ? await claudeFiles(store, o) : o.tool === 'codex' ? await codexFiles(store) : await geminiFiles(store, o);
  return { files, missing: [], store };
}

/** Claude Code: `projects/<cwd with every other character than letters and digits as ->/*.jsonl` (subagents' files left out). */
async function claudeFiles(store: string, o: DiscoverOptions): Promise<Candidate[]> {
  const projects = join(store, 'projects');
  const slug = o.cwd.replace(/[^A-Za-z0-9]/g, '-');
  const dirs = (await entries(projects)).filter((e) => e.isDirectory() && (o.all || e.name === slug));
  const files: Candidate[] = [];
  for (const dir of dirs) {
    for (const e of await entries(join(projects, dir.name))) if (e.isFile() && e.name.endsWith('.jsonl')) files.push({ path: join(projects, dir.name, e.name) });
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

/** Codex CLI: every rollout under `sessions/` and `archived_sessions/` (the project is in each file). */
async function codexFiles(store: string): Promise<Candidate[]> {
  const files = [...(await walk(join(store, 'sessions'))), ...(await walk(join(store, 'archived_sessions')))];
  return files.filter((f) => isSessionFile('codex', f)).map((path) => ({ path }));
}

/** Gemini CLI: `tmp/<project>/chats/session-*.json[l]` and `tmp/<project>/checkpoint-*.json`; the project is `tmp/<project>/.project_root`, or its SHA-256 is the folder's name. */
async function geminiFiles(store: string, o: DiscoverOptions): Promise<Candidate[]> {
  const tmp = join(store, 'tmp');
  const hash = createHash('sha256').update(o.cwd).digest('hex');
  const files: Candidate[] = [];
  for (const dir of (await entries(tmp)).filter((e) => e.isDirectory())) {
    const root = await projectRoot(join(tmp, dir.name));
    const cwd = root ?? (dir.name === hash ? o.cwd : undefined);
    if (!o.all && cwd !== o.cwd) continue;
    const chats = join(tmp, dir.name, 'chats');
    for (const e of await entries(chats)) if (e.isFile() && isSessionFile('gemini', e.name)) files.push({ path: join(chats, e.name), ...(cwd ? { cwd } : {}) });
    // Checkpoints (`/chat save TAG`) sit in the project's folder itself.
    for (const e of await entries(join(tmp, dir.name))) if (e.isFile() && isCheckpoint(e.name)) files.push({ path: join(tmp, dir.name, e.name), ...(cwd ? { cwd } : {}) });
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

async function withGeminiRoots(tool: PeerTool, paths: string[]): Promise<Candidate[]> {
  if (tool !== 'gemini') return paths.map((path) => ({ path }));
  return Promise.all(paths.map(async (path) => {
    const root = basename(dirname(path)) === 'chats' ? await projectRoot(dirname(dirname(path))) : isCheckpoint(path) ? await projectRoot(dirname(path)) : undefined;
    return { path, ...(root ? { cwd: root } : {}) };
  }));
}

async function projectRoot(dir: string): Promise<string | undefined> {
  const text = await readFile(join(dir, '.project_root'), 'utf8').catch(() => undefined);
  return text?.trim() || undefined;
}

/** Whether a file found in a folder is one of the tool's session files. */
function isSessionFile(tool: PeerTool, path: string): boolean {
  const name = basename(path);
  if (tool === 'claude') return name.endsWith('.jsonl') && !path.includes('/subagents/');
  if (tool === 'codex') return /^rollout-.*\.jsonl$/.test(name);
  return /^session-.*\.jsonl?$/.test(name) || isCheckpoint(name);
}

async function entries(dir: string): Promise<import('node:fs').Dirent[]> {
  return readdir(dir, { withFileTypes: true }).catch((err: unknown) => {
    if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') return [];
    throw err;
  });
}

/** Every file under `dir`, sorted. */
async function walk(dir: string): Promise<string[]> {
  const found = await readdir(dir, { recursive: true, withFileTypes: true }).catch((err: unknown) => {
    if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') return [];
    throw err;
  });
  return found.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
}
