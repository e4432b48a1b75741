import type { IndexRow } from './index-row.js';
import type { JournalEvent } from './journal.js';
import { readJournal } from './journal.js';
import { addModelUsage, compactionFrom } from './replay.js';
import { layout } from './layout.js';
import { readSessionFiles } from './reading.js';

/** The truth about one session, from its files (snapshot + journal + lock); reads, never writes. */
export async function rowFromFiles(dir: string, id: string, projectPath: string, staleMs: number): Promise<IndexRow> {
  return (await readSessionFiles(dir, id, projectPath, { staleMs, now: new Date(), stable: false })).row;
}

/** Brings a row of a live session up to date with its journal (cheap: the journal is short). */
export async function applyJournalToRow(row: IndexRow, dir: string): Promise<IndexRow> {
  const { events } = await readJournal(layout.journal(dir));
  return summarizeEvents(row, events);
}

function summarizeEvents(row: IndexRow, events: readonly JournalEvent[]): IndexRow {
  const next = { ...row };
  const replies = new Set<string>();
  for (const e of events) {
    if (e.seq <= row.journalSeq) continue;
    const at = Date.parse(e.ts);
    if (at > next.updatedAt) next.updatedAt = at;
    const p = e.payload;
    if (e.type === 'message') {
      next.messageCount++;
      if (typeof p.replyId === 'string') replies.delete(p.replyId);
      // The payload is `{ message, replyId? }`: usage and model are the message's.
      const message = p.message as { usage?: { inputTokens?: unknown; outputTokens?: unknown }; model?: unknown } | undefined;
      const usage = message?.usage;
      if (usage && typeof usage.inputTokens === 'number' && typeof usage.outputTokens === 'number') {
        next.inputTokens = (next.inputTokens ?? 0) + usage.inputTokens;
        next.outputTokens = (next.outputTokens ?? 0) + usage.outputTokens;
        const model = message.model;
        if (typeof model === 'string') {
          next.byModel = (next.byModel ?? []).map((m) => ({ ...m }));
          addModelUsage(next.byModel, model, { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens });
        }
      }
    } else if (e.type === 'delta') replies.add(String(p.replyId));
    else if (e.type === 'reset') {
      // A compaction's payload carries the live counters it leaves (a plain /reset leaves none).
      const live = compactionFrom(p)?.stats;
      next.messageCount = live?.messageCount ?? 0;
      next.inputTokens = live?.inputTokens ?? 0;
      next.outputTokens = live?.outputTokens ?? 0;
      if (live?.byModel?.length) next.byModel = live.byModel;
      else delete next.byModel;
    }
    else if (e.type === 'title') next.title = typeof p.title === 'string' ? p.title : null;
    else if (e.type === 'git') {
      if (typeof p.branch === 'string') next.branch = p.branch;
      else delete next.branch;
    }
  }
  next.messageCount += replies.size;
  return next;
}
