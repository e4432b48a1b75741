/** `chatkeep sessions prune --older-than AGE`: old sessions go to the trash, restorable. */
import type { SessionSummary } from '../../session/api/listing.js';
import type { SessionManager } from '../../session/runtime/manager-api.js';
import { plural } from '../../terminal/format.js';
import type { SessionsCommand, SessionsEnvironment } from '../sessions-common.js';
import { moveToTrash, restoreHint, start, trashJson, type Age, type Output } from './trash-group-run.js';

export async function runPrune(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  const started = await start(command, environment);
  return prune(started.sessions, { ...command.options, age: started.age! }, started.out, started.environment.now);
}

/** `prune --older-than AGE [--all] [--dry-run]`: sessions last updated before now − AGE go to the trash, each ID printed. */
async function prune(sessions: SessionManager | undefined, options: SessionsCommand['options'] & { age: Age }, out: Output, now: Date): Promise<number> {
  const { spec } = options.age;
  const cutoff = now.getTime() - options.age.ms;
  const rows = sessions ? (await sessions.list({ all: options.all === true })).filter((row) => row.updatedAt.getTime() < cutoff) : [];
  const where = options.all ? '' : ' in this project';
  if (rows.length === 0) {
    out.data([], () => '');
    out.note(`No sessions${where} were last updated more than ${spec} ago; nothing moved.`);
    return 0;
  }
  if (options['dry-run']) {
    out.data(rows.map(pruneJson), () => rows.map((row) => row.id).join('\n'));
    out.note(`Dry run: ${plural(rows.length, 'session')}${where} would go to the trash; nothing moved.`);
    return 0;
  }
  const moved = await moveToTrash(sessions!, rows.map((row) => row.id), out);
  out.data(moved.entries.map(trashJson), () => moved.entries.map((t) => t.id).join('\n'));
  if (!out.json && moved.entries.length > 0) out.note(`Moved ${plural(moved.entries.length, 'session')} to the trash. ${restoreHint(moved.entries, out.chatkeep)}`);
  return moved.exitCode;
}

/** A row of `prune --dry-run --json`: what would move. */
function pruneJson(row: SessionSummary): Record<string, unknown> {
  return { id: row.id, title: row.title, project: row.project, updatedAt: row.updatedAt.toISOString(), messageCount: row.messageCount, status: row.status };
}
