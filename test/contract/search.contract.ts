/**
 * Full-text search (docs/design.md §18), as every store answers it: the cases `storeContract` runs. The
 * expected answer is the pure search of src/search/ over the same messages: every store must
 * give exactly what it gives (which sessions, in which order, hits, where, snippets).
 */
import { expect, it } from 'vitest';
import { searchableMessages } from '../../src/search/rank.js';
import { searchMessages } from '../../src/search/search-messages.js';
import type { SearchResults } from '../../src/session/api/search-data.js';
import { rowFromSnapshot } from '../../src/session/format/index-row.js';
import type { WholeStore } from '../../src/session/runtime/store-defaults.js';
import type { SessionSnapshot } from '../../src/session/api/data.js';
import type { SessionSummary } from '../../src/session/api/listing.js';
import { AT, messageEvent, savedSession, snapshotOf, type Harness } from './contract-kit.js';

const minutes = (n: number): Date => new Date(AT.getTime() + n * 60_000);

/** What a search result says, beyond the listing row. */
function shape(results: Pick<SearchResults, 'total' | 'results'>) {
  return { total: results.total, results: results.results.map((r) => ({ id: r.session.id, hits: r.hits, matched: r.matched, snippet: r.snippet })) };
}

/** What the pure search finds in these sessions (as they are stored now). */
function expected(query: string, sessions: SessionSnapshot[], limit?: number) {
  const input = sessions.map((s) => ({ summary: { id: s.id, title: s.title, updatedAt: s.updatedAt } as SessionSummary, messages: searchableMessages(s) }));
  return shape(searchMessages(query, input, limit));
}

async function search(store: WholeStore, query: string, limit?: number) {
  return shape(await store.searchSessions(query, [store.project], limit === undefined ? {} : { limit }));
}

export function searchCases(h: Harness): void {
  it('search: literal, case- and Unicode-folded, inside words; ranked by hits with a snippet, as src/search/ ranks them', async () => {
    const store = await h.open();
    const a = await savedSession(store, AT, ['The session about sessions', "regex a.b*c (x|y) and it's \\d here", 'ﬁle Ａpple', 'x'], (s) => {
      s.title = 'Straße plans';
      s.archived = [{ archivedAt: AT, summary: null, stats: s.stats, messages: [{ role: 'user', content: 'an old session, cleared', timestamp: AT }] }];
    });
    const b = await savedSession(store, minutes(1), ['SESSION one', 'nothing', `${'long '.repeat(30)}session in a long message ${'tail '.repeat(30)}`]);
    const c = await savedSession(store, minutes(2), ['unrelated', 'ἈΣ ΣΊΣΥΦΟΣ', 'δ']);
    const all = [a, b, c];
    const queries = [
      'ession', 'SESSION', 'a.b*c (X|Y)', "it's \\d", 'strasse', 'FILE apple', 'se', 'x', 'σίσυφος', 'δ', 'session-2026', '  ', 'nowhere at all',
      'old session', 'long session', 'e',
    ];
    for (const query of queries) expect({ query, ...(await search(store, query)) }).toEqual({ query, ...expected(query, all) });
    expect(await search(store, 'session', 1)).toEqual(expected('session', all, 1));
    // A second store (another machine) finds the same.
    expect(await search(await h.open(), 'ession')).toEqual(expected('ession', all));
    expect((await store.searchSessions('  ession ', [store.project], {})).query).toBe('ession');
  });

  it('search over a generated corpus answers as the pure search does: words, prefixes as typed, inside words, phrases, folding, every message, none', async () => {
    const store = await h.open();
    // A fixed pseudo-random corpus: the same words in many forms (case, accents, compatibility forms, punctuation).
    let seed = 42;
    const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const words = ['Café', 'cafe', 'CAFÉ', 'Straße', 'STRASSE', 'ﬁle', 'naïve', 'Ｚebra', 'zebras', 'don’t', "it's", 'x-ray', 'e-mail', 'σίσυφος', '日本語', 'über', 'data_base', '42', 'kiwi'];
    const message = (): string => `${Array.from({ length: 1 + next(8) }, () => words[next(words.length)]).join(next(3) === 0 ? ', ' : ' ')} common`;
    let all: SessionSnapshot[] = [];
    for (let i = 0; i < 24; i++) all.push(await savedSession(store, minutes(i), Array.from({ length: 1 + next(5) }, message)));
    const queries = [
      'café', 'CAFE', 'caf', 'afé', 'strasse', 'straße', 'file', 'fi', 'naïve', 'naive', 'zebra', 'zebras z', 'don’t', "it's", 'x-ray', '-ray', 'ray e',
      'e-mai', 'σίσυφος', 'ΣΊΣΥΦΟΣ', '本語', 'über 42', 'data_base', 'ta_ba', '42', 'kiwi common', 'common', 'n', 'common common', ', ', '-', 'nowhere', 'zzz',
      'café cafe', 'cafe, café',
    ];
    const check = async (on: WholeStore): Promise<void> => {
      for (const query of queries) expect({ query, ...(await search(on, query, 0)) }).toEqual({ query, ...expected(query, all, 0) });
      // As typed, a letter at a time (each search narrowed from the last), then a fresh search of each.
      for (const query of ['k', 'ki', 'kiw', 'kiwi', 'kiwi ', 'kiwi c', 'kiwi co']) expect(await search(on, query, 0)).toEqual(expected(query, all, 0));
    };
    await check(store);
    // Sessions changed and added by another process (a second store): found at once, and no word they lost still finds them.
    const other = await h.open();
    const changed = all.slice(0, 3).map((s, i) => ({ ...snapshotOf(s.id, other.project.path, 0, [`kiwi replaced ${i}`, 'quokka']), createdAt: s.createdAt, updatedAt: minutes(40 + i) }));
    for (const s of changed) {
      await other.locate(s.id);
      const lock = await other.lock(s.id, () => undefined);
      await other.writeSnapshot(s.id, s, lock);
      await other.recordRow?.(rowFromSnapshot(s, 'closed'), other.project);
      await lock.release();
    }
    all = [...changed, ...all.slice(3), await savedSession(other, minutes(50), ['a quokka, café'])];
    queries.push('quokka', 'replaced', 'kiwi replaced 1');
    await check(store);
  });

  it('search without snippets (the session browser\'s, at every keystroke): the same sessions, hits and order', async () => {
    const store = await h.open();
    await savedSession(store, AT, ['the zanzibar plan', 'zanzibar and Zanzibar again']);
    await savedSession(store, minutes(1), ['zanzibar once', 'nothing']);
    await savedSession(store, minutes(2), ['nothing here']);
    const withThem = await store.searchSessions('zanzibar', [store.project], { limit: 0 });
    const without = await store.searchSessions('zanzibar', [store.project], { limit: 0, snippets: false });
    expect(withThem.results.map((r) => r.snippet?.message)).toEqual([1, 0]);
    const found = (r: SearchResults) => ({ total: r.total, results: r.results.map((x) => ({ id: x.session.id, hits: x.hits, matched: x.matched })) });
    expect(found(without)).toEqual(found(withThem));
  });

  it('search as typed: each longer query (narrowed from the last one\'s hits) finds exactly what a fresh search finds', async () => {
    const store = await h.open();
    const a = await savedSession(store, AT, ['Zanzibar came up', 'zany plans', 'nothing']);
    const b = await savedSession(store, minutes(1), ['a bazaar in zanzibar, ZANZIBAR'], (s) => (s.title = 'Zanzibar trip'));
    const c = await savedSession(store, minutes(2), ['unrelated', 'ﬁzz Ｚanzibar']);
    let all = [a, b, c];
    const typed = async (queries: string[]): Promise<void> => {
      for (const query of queries) expect({ query, ...(await search(store, query, 0)) }).toEqual({ query, ...expected(query, all, 0) });
    };
    // Typed, a backspace, a query that does not extend the last, one that extends it in the middle.
    await typed(['z', 'za', 'zan', 'zanz', 'zanzi', 'zan', 'zany', 'zan', 'anzi', 'zanzibar', 'zanzibar came', 'fizz', 'i']);
    // A session written between two keystrokes is found by the next one; so is a message added to one.
    await typed(['zanz']);
    const d = await savedSession(store, minutes(3), ['zanzibar again']);
    const lock = await store.lock(c.id, () => undefined);
    const more = { ...c, messages: [...c.messages, { role: 'user' as const, content: 'zanzibar at last', timestamp: minutes(4) }], updatedAt: minutes(4) };
    more.stats = { ...c.stats, messageCount: more.messages.length };
    await store.writeSnapshot(c.id, more, lock);
    await store.recordRow(rowFromSnapshot(more, 'closed'), store.project);
    await lock.release();
    all = [a, b, more, d];
    await typed(['zanzi', 'zanzib', 'zanzibar a']);
    // What a second store (another process, which never searched) finds right after the writes.
    expect(await search(await h.open(), 'zanzibar', 0)).toEqual(expected('zanzibar', all, 0));
  });

  it('search finds what a live session holds only in its events, and what changed since the last search; only the projects asked for', async () => {
    const store = await h.open();
    const reader = await h.open();
    const id = await store.reserveId(AT, store.project);
    const lock = await store.lock(id, () => undefined);
    const log = await store.openLog(id, lock);
    await log.append(messageEvent(1, 'user', 'kiwi fruit'), true);
    const first = await reader.searchSessions('KIWI', [reader.project], {});
    expect(first.results.map((r) => [r.session.id, r.hits, r.snippet?.text])).toEqual([[id, 1, 'kiwi fruit']]);

    await log.append(messageEvent(2, 'assistant', 'more kiwi, kiwi'), true);
    const second = await reader.searchSessions('kiwi', [reader.project], {});
    expect(second.results.map((r) => [r.hits, r.snippet?.message, r.snippet?.role, r.snippet?.text])).toEqual([[3, 1, 'assistant', 'more kiwi, kiwi']]);

    // Saved and compacted as the model does: the same answer.
    const saved = snapshotOf(id, store.project.path, 2, ['kiwi fruit', 'more kiwi, kiwi']);
    await store.writeSnapshot(id, saved, lock);
    await log.compact(2);
    await log.close();
    await lock.release();
    expect((await reader.searchSessions('kiwi', [reader.project], {})).results.map((r) => r.hits)).toEqual([3]);

    // Only the projects asked for.
    const elsewhere = await h.open(h.otherCwd());
    expect((await elsewhere.searchSessions('kiwi', [elsewhere.project], {})).total).toBe(0);
    expect((await elsewhere.searchSessions('kiwi', await elsewhere.projects(), {})).total).toBe(1);
  });
}
