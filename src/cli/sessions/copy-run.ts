/**
 * `chatkeep sessions copy --to URL|DIR [--all | ID…] [--json]`: copies sessions from the store
 * in use into another (a PostgreSQL server, or a data directory), in either direction. A second
 * run copies nothing and says so; a session the target holds differently under the same ID is
 * left alone and named; what was copied is read back and its content hash compared.
 */
import { resolve } from 'node:path';
import { UserError } from '../../session/api/errors.js';
import { copySessions, type CopyOutcome, type CopyReport } from '../../session/runtime/copy.js';
import type { SessionManager } from '../../session/runtime/manager-api.js';
import { namedOnCommandLine, sessionsMayExist } from '../../store/choice.js';
import { openSessions } from '../../store/open.js';
import { isPostgresUrl, redactUrl } from '../../store/postgres/url.js';
import { plural } from '../../terminal/format.js';
import type { SessionsCommand, SessionsEnvironment } from '../sessions-common.js';

export async function runCopy(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  const { home, store, cwd, env, stdout, stderr } = environment;
  const to = command.options.to!;
  const target: { url: string } | { home: string } = isPostgresUrl(to) ? { url: namedOnCommandLine(to, '--to') ?? to } : { home: resolve(cwd, to) };
  const targetName = 'url' in target ? redactUrl(target.url) : target.home;
  if ('url' in target ? target.url === store : store === undefined && target.home === resolve(cwd, home)) {
    throw new UserError(`--to ${targetName} is the store these sessions are already in: name another one.`, 'E_USAGE');
  }
  if (!sessionsMayExist(environment)) {
    stdout.write(command.options.json ? `${JSON.stringify(jsonOf(emptyReport(), targetName), null, 2)}\n` : 'No sessions to copy yet.\n');
    return 0;
  }
  const from = await openSessions({ home, store, cwd, env });
  let into: SessionManager | undefined;
  try {
    const ids =
      command.ids.length > 0
        ? [...new Set(await Promise.all(command.ids.map(async (id) => (await from.resolve(id)).id)))]
        : (await from.list({ all: command.options.all === true })).map((row) => row.id);
    into = await openSessions('url' in target ? { home, store: target.url, cwd, env } : { home: target.home, cwd, env });
    // Progress on a terminal only, on one line rewritten in place; scripts get the result alone.
    const terminal = (stderr as NodeJS.WriteStream).isTTY === true;
    const report = await copySessions(from, into, ids, (_outcome, done, total) => {
      if (terminal) stderr.write(`\rCopying ${done}/${total}…`);
    });
    if (terminal && ids.length > 0) stderr.write('\r\x1b[K');
    stdout.write(command.options.json ? `${JSON.stringify(jsonOf(report, targetName), null, 2)}\n` : textOf(report, targetName));
    return report.refused > 0 ? 1 : 0;
  } finally {
    await into?.close().catch(() => undefined);
    await from.close().catch(() => undefined);
  }
}

function emptyReport(): CopyReport {
  return { sessions: [], copied: 0, present: 0, refused: 0, messages: 0, hash: '' };
}

function lineOf(s: CopyOutcome): string {
  if (s.outcome === 'copied') return `copied         ${s.id} (${plural(s.messages, 'message')})`;
  if (s.outcome === 'present') return `already there  ${s.id}`;
  return `not copied     ${s.id}: ${s.reason}`;
}

function textOf(report: CopyReport, target: string): string {
  if (report.sessions.length === 0) return 'No sessions to copy.\n';
  const summary =
    report.copied === 0 && report.refused === 0
      ? `Nothing to copy: ${report.present === 1 ? 'the session is' : `all ${report.present} sessions are`} already in ${target}.`
      : `Copied ${plural(report.copied, 'session')} to ${target}${report.present ? `; ${report.present} already there` : ''}${report.refused ? `; ${report.refused} not copied (a different session has that ID there)` : ''}.`;
  const verified = `${plural(report.messages, 'message')} in ${target} read back the same: content hash sha256:${report.hash.slice(0, 16)}`;
  return [...report.sessions.map(lineOf), summary, verified, ''].join('\n');
}

function jsonOf(report: CopyReport, target: string): Record<string, unknown> {
  return {
    to: target,
    copied: report.copied,
    alreadyThere: report.present,
    notCopied: report.refused,
    messages: report.messages,
    contentHash: report.hash,
    sessions: report.sessions.map((s) => (s.outcome === 'refused' ? { id: s.id, outcome: 'not-copied', reason: s.reason } : { id: s.id, outcome: s.outcome === 'present' ? 'already-there' : 'copied', messages: s.messages, contentHash: s.hash })),
  };
}
