/**
 * `chatkeep sessions doctor [ID] [--restore | --forget] [--json]`: every session with a problem
 * (every project), what is wrong and what can be restored of it; with ID, that one, and the two
 * ways out for damaged parts kept aside: their readable messages the session lacks restored as a
 * new session (nothing of the session changes), or the parts let go for good.
 */
import { openSessions } from '../../index.js';
import type { KeptReport } from '../../session/format/kept-report.js';
import type { SessionManager } from '../../session/runtime/manager-api.js';
import type { SessionReading } from '../../session/api/listing.js';
import { noSuchSession } from '../../session/api/ids.js';
import { sessionsMayExist } from '../../store/choice.js';
import { plural, problemAdvice, problemLabel } from '../../terminal/format.js';
import { UserError } from '../../session/api/errors.js';
import { commandOf } from '../chatkeep-host.js';
import type { SessionsCommand, SessionsEnvironment } from '../sessions-common.js';
import type { CacheFix } from '../../session/format/store.js';
import { visibleText } from '../../text/visible-text.js';

interface Finding {
  id: string;
  project: string;
  problem: NonNullable<SessionReading['problem']>;
  messageCount: number | null;
  kept: KeptReport[];
}

export async function runDoctor(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  const { home, store, cwd, env, stdout, stderr } = environment;
  const json = command.options.json === true;
  const chatkeep = commandOf(environment);
  if (!sessionsMayExist(environment)) {
    if (command.id !== undefined) throw noSuchSession(command.id);
    stdout.write(json ? `${JSON.stringify({ checked: 0, sessions: [] }, null, 2)}\n` : '');
    if (!json) stderr.write('No sessions yet: nothing to check.\n');
    return 0;
  }
  const sessions = await openSessions({ home, store, cwd, env });
  if (command.id !== undefined && command.options.restore) return restore(sessions, command.id, environment, json);
  if (command.id !== undefined && command.options.forget) return forget(sessions, command.id, command.options.yes === true, environment, json);

  // The caches first: a listing that trusted a stale one would hide what the files hold.
  const fixed = await sessions.checkCaches(command.id);
  const ids = command.id !== undefined ? [command.id] : (await sessions.list({ all: true })).filter((row) => row.problem).map((row) => row.id);
  const findings: Finding[] = [];
  for (const id of ids) {
    const reading = await sessions.inspect(id);
    if (!reading.problem) continue;
    const kept = reading.problem.kind === 'recovered' ? await sessions.keptAside(reading.id) : [];
    findings.push({ id: reading.id, project: reading.project, problem: reading.problem, messageCount: reading.snapshot ? reading.snapshot.messages.length : null, kept });
  }
  if (json) {
    stdout.write(`${JSON.stringify({ fixed, sessions: findings.map(findingJson) }, null, 2)}\n`);
    return findings.length > 0 ? 1 : 0;
  }
  if (fixed.length > 0) stdout.write(`${fixed.map(fixText).join('\n')}\n${findings.length > 0 ? '\n' : ''}`);
  if (findings.length === 0) {
    stderr.write(command.id !== undefined ? `Session ${command.id} has no problem.\n` : 'No session has a problem.\n');
  } else {
    stdout.write(`${findings.map((f) => findingText(f, chatkeep).join('\n')).join('\n\n')}\n`);
  }
  return findings.length > 0 ? 1 : 0;
}

/** One line per cache rewritten: what it said, what the session holds. */
function fixText(fix: CacheFix): string {
  const what = fix.cache === 'meta' ? 'its meta file' : 'its row in the listing index';
  const said = (v: CacheFix['was']) => `${plural(v.messageCount, 'message')}, ${v.title === null ? 'untitled' : `"${visibleText(v.title)}"`}, updated ${new Date(v.updatedAt).toISOString()}`;
  return `Fixed ${fix.id}: ${what} said ${said(fix.was)}; the session holds ${said(fix.now)}.`;
}

function findingJson(f: Finding): Record<string, unknown> {
  return {
    id: f.id,
    project: f.project,
    problem: f.problem,
    messageCount: f.messageCount,
    kept: f.kept.map((k) => ({ where: k.where, part: k.part, readable: k.readable, unreadable: k.unreadable, missing: k.missing.length })),
  };
}

/** A session's lines: what is wrong, each part kept aside with what it holds, and what to run. */
function findingText(f: Finding, chatkeep: (args: readonly string[]) => string): string[] {
  const count = f.messageCount === null ? 'nothing readable' : `${plural(f.messageCount, 'message')} readable now`;
  const lines = [`${f.id}  ${problemLabel(f.problem)} · ${count} · ${f.project}`];
  if (f.problem.kind !== 'recovered') {
    const { text, advice } = problemAdvice(f.id, f.problem);
    lines.push(`  ${text}`);
    if (advice?.run) lines.push(`  ${advice.to} ${chatkeep(advice.run)}`);
    return lines;
  }
  for (const k of f.kept) {
    const unreadable = k.unreadable > 0 ? `, ${k.unreadable} not` : '';
    const holds = k.part !== 'snapshot'
      ? 'a copy of a journal with damaged lines (its readable lines are in the session)'
      : k.readable === 0
        ? `no message readable in it${unreadable ? ` (${plural(k.unreadable, 'message')} cut short)` : ''}`
        : `${plural(k.readable, 'message')} readable${unreadable}; ${k.missing.length === 0 ? 'the session holds every one' : `${k.missing.length} of them not in the session`}`;
    lines.push(`  kept: ${k.where}`, `    ${holds}`);
  }
  const missing = f.kept.reduce((n, k) => n + k.missing.length, 0);
  if (missing > 0) lines.push(`  Restore the ${plural(missing, 'message')} as a new session: ${chatkeep(['sessions', 'doctor', f.id, '--restore'])}`);
  lines.push(`  Once you no longer need what is kept, let it go: ${chatkeep(['sessions', 'doctor', f.id, '--forget', '--yes'])}`);
  return lines;
}

/** A new session of the readable messages kept aside that the session lacks; the session is left as it is. */
async function restore(sessions: SessionManager, id: string, environment: SessionsEnvironment, json: boolean): Promise<number> {
  const chatkeep = commandOf(environment);
  const reading = await sessions.inspect(id);
  const missing = (await sessions.keptAside(reading.id)).flatMap((k) => k.missing);
  if (missing.length === 0) {
    throw new UserError(`Nothing to restore: session ${reading.id} holds every readable message of what is kept aside of it.`, 'E_NOTHING_TO_RESTORE', 2, {
      to: 'See what is kept with:',
      run: ['sessions', 'doctor', reading.id],
    });
  }
  const title = `Restored from ${reading.id}`;
  const restored = await sessions.create({ title });
  try {
    const [first, ...rest] = missing;
    await restored.append(first!, ...rest);
  } finally {
    await restored.close();
  }
  if (json) environment.stdout.write(`${JSON.stringify({ id: restored.id, from: reading.id, messages: missing.length }, null, 2)}\n`);
  else {
    environment.stdout.write(`${restored.id}\n`);
    environment.stderr.write(
      `Restored ${plural(missing.length, 'message')} kept aside of ${reading.id} as ${restored.id} ("${title}"); ${reading.id} is unchanged.\nResume with: ${chatkeep(['--session-id', restored.id])}\n`,
    );
  }
  return 0;
}

/** Removes the parts kept aside for good, after asking (or with --yes). */
async function forget(sessions: SessionManager, id: string, yes: boolean, environment: SessionsEnvironment, json: boolean): Promise<number> {
  const reading = await sessions.inspect(id);
  const kept = await sessions.keptAside(reading.id);
  if (kept.length === 0) {
    environment.stderr.write(`Session ${reading.id} has nothing kept aside.\n`);
    if (json) environment.stdout.write(`${JSON.stringify({ id: reading.id, removed: 0 }, null, 2)}\n`);
    return 0;
  }
  const what = `${plural(kept.length, 'damaged part')} kept aside of ${reading.id} (${kept.map((k) => k.where).join(', ')})`;
  if (!yes) {
    if (!environment.confirm) {
      throw new UserError(`This would remove ${what} for good; nothing was removed.`, 'E_CONFIRM', 2, {
        to: 'To go ahead, run:',
        run: ['sessions', 'doctor', reading.id, '--forget', '--yes'],
      });
    }
    if (!(await environment.confirm(`Remove ${what} for good? This cannot be undone.`))) {
      environment.stderr.write('Nothing was removed.\n');
      return 0;
    }
  }
  const removed = await sessions.forgetKeptAside(reading.id);
  if (json) environment.stdout.write(`${JSON.stringify({ id: reading.id, removed }, null, 2)}\n`);
  else {
    const empty = (reading.snapshot?.messages.length ?? 0) === 0 && (reading.snapshot?.archived.length ?? 0) === 0;
    const now = empty ? 'it holds no message now, so listings leave it out (it is still there by its ID)' : 'it has no problem now';
    environment.stderr.write(`Removed ${plural(removed, 'damaged part')} kept aside of ${reading.id}; ${now}.\n`);
  }
  return 0;
}
