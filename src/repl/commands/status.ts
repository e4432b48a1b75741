import { info } from '../command-result.js';
import { sourceNote } from '../../terminal/describe-source.js';
import { plural, relativeTime, tokens } from '../../terminal/format.js';
import type { CommandContext, SlashCommand } from '../types.js';
import { visibleText } from '../../text/visible-text.js';
import type { SaveTrigger } from '../../session/api/data.js';
import type { SessionStatusReport } from '../../session/api/session-api.js';

/**
 * What wrote the last snapshot, in the chat's words. A chat turn writes none: each message is
 * journaled (the `Journal` line counts them) and folded into a snapshot by one of these.
 */
function triggerText(ctx: CommandContext, trigger: SaveTrigger): string {
  const said = (name: string): string => ctx.ui.command(name);
  switch (trigger) {
    case 'save':
      return said('save');
    case 'autosave':
      return 'the autosave timer';
    case 'close':
      return `leaving (exit or ${said('load')})`;
    case 'reset':
      // A compaction's snapshot is recorded as a reset's: older builds know no other word for it.
      return `${said('reset')} or ${said('compact')}`;
    case 'recovery':
      return 'recovery on resume';
    case 'fork':
      return 'the fork that made it';
  }
}

/** `/status`: where this session lives and how current its files are (the facts come from `Session.status()`). */
export const status: SlashCommand = {
  name: 'status',
  summary: 'where this session is stored, its lock, last and next save, journal, assistant and tokens',
  async run(ctx) {
    const s = await ctx.session.current.status();
    const now = ctx.services.now();
    // With --no-persist the session is in a memory store that ends with the process: none of it counts as stored.
    const kept = ctx.session.persistent;
    const rows: [string, string][] = [
      ['Session', `${kept ? s.id : 'not stored'}${ctx.session.current.title ? `  "${visibleText(ctx.session.current.title)}"` : ''} · ${plural(s.messageCount, 'message')}`],
      ['Stored in', kept ? `${s.store} store, ${s.where.files?.dir ?? s.where.location}` : 'nowhere: --no-persist keeps this chat in memory only'],
      ['Lock', kept ? lockText(s) : 'none (nothing to protect)'],
      ['Last save', kept ? lastSaveText(ctx, s, now) : 'never (--no-persist)'],
      ['Next save', nextSaveText(kept, ctx.session.autosave()?.nextDate() ?? null, now)],
      ['Journal', kept ? `${plural(s.unsavedJournalLines, 'line')} not yet in a snapshot${s.where.files ? ` (${s.where.files.journal})` : ''}` : 'none'],
      ['Assistant', ctx.services.chat ? `${ctx.services.chat.provider.label}${sourceNote(ctx.services.chat.providerSource ?? s.provider.source)}` : 'none in this REPL'],
      ['System', s.systemPrompt ? `${s.systemPrompt.path} (sha256 ${s.systemPrompt.sha256.slice(0, 12)}…)${sourceNote(s.systemPrompt.source)}` : 'none'],
      ['Tokens', tokenText(s.usage)],
    ];
    const width = Math.max(...rows.map(([k]) => k.length)) + 2;
    return info(rows.map(([k, v]) => `${k.padEnd(width)}${v}`).join('\n'));
  },
};

function lockText(s: SessionStatusReport): string {
  if (s.lock.state === 'lost') return `lost (${s.lock.reason ?? 'unknown'}): read-only, nothing more is written`;
  const o = s.lock.owner;
  return o ? `held by this process (pid ${o.pid} on ${o.host}, since ${clock(new Date(o.startedAt))})` : 'held by this process';
}

function lastSaveText(ctx: CommandContext, s: SessionStatusReport, now: Date): string {
  const last = s.lastSave;
  if (!last) return 'no snapshot yet (every message is in the journal)';
  const took = last.ms === null ? '' : `, took ${last.ms < 10 ? last.ms.toFixed(1) : Math.round(last.ms)} ms`;
  const by = last.trigger ? triggerText(ctx, last.trigger) : 'an earlier run';
  const when = last.thisRun || !last.trigger ? '' : ' in an earlier run';
  return `${relativeTime(last.at, now)} by ${by}${when}${took}, ${bytes(last.bytes)}`;
}

function nextSaveText(persistent: boolean, next: Date | null, now: Date): string {
  if (!persistent) return 'never (--no-persist)';
  if (!next) return 'autosave is off (/save and leaving still save)';
  const seconds = Math.max(0, Math.round((next.getTime() - now.getTime()) / 1000));
  const wait = seconds < 90 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
  return `autosave in ${wait} (${clock(next)}), if anything changed`;
}

function tokenText(usage: SessionStatusReport['usage']): string {
  const total = tokens(usage).replace(/^ · /, '');
  return total === '' ? 'none reported' : `${total} so far (${usage.inputTokens} in, ${usage.outputTokens} out)`;
}

/** `08:55:00 UTC`: the clock the session IDs use. */
function clock(date: Date): string {
  return `${date.toISOString().slice(11, 19)} UTC`;
}

function bytes(n: number): string {
  return n < 1000 ? `${n} B` : n < 1e6 ? `${(n / 1000).toFixed(1)} kB` : `${(n / 1e6).toFixed(1)} MB`;
}
