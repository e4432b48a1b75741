/**
 * The browser as an `@inquirer/core` prompt: state in hooks, keys through `useKeypress`, the
 * query typed into the prompt's own readline line (so editing keys work as everywhere), and a
 * repaint whenever something changes: a key, a search result, a preview read, a resize.
 * The library comes in as a parameter: it is imported only when the browser opens.
 */
import type { SessionSnapshot } from '../session/api/data.js';
import { attempt, exportTo, forkSession, renameSession, trashSession, type ActionOutcome } from './actions.js';
import { NO_FILTERS, passes, type Filters } from './filters.js';
import { arrange, revealed } from './families.js';
import { drawFrame, listHeight, saidLines, scrolled } from './layout.js';
import { LABELS, type Key, type Mode } from './keys.js';
import { onKey, type KeyState } from './on-key.js';
import type { Holding } from './rows.js';
import { FIRST_ROWS, type BrowseChoice, type BrowserConfig } from './config.js';
import type { SessionSummary } from '../session/api/listing.js';
import type { Found } from './find-sessions.js';
import { useCells } from './cells.js';

type Core = typeof import('@inquirer/core');

/** How long typing pauses before every match of the query is asked for. */
const QUIET_MS = 300;

type Prompt = ReturnType<typeof makePrompt>;
const made = new WeakMap<Core, Prompt>();

/** The browser's prompt, made once per copy of the library (making one captures a stack trace). */
export function browserPrompt(core: Core): Prompt {
  let prompt = made.get(core);
  if (prompt === undefined) made.set(core, (prompt = makePrompt(core)));
  return prompt;
}

function makePrompt(core: Core) {
  const { createPrompt, useEffect, useKeypress, useMemo } = core;
  return createPrompt<BrowseChoice, BrowserConfig>((config, done) => {
    const { state: useState, ref: useRef, repaint } = useCells(core);
    // The rows, and whether they are the scope's newest alone (the rest being listed: the count
    // says so). One state: each state set repaints the whole frame at once.
    const [{ rows, partial }, setListing] = useState({ rows: config.rows, partial: config.partial === true });
    const [all, setAll] = useState(config.all);
    const [query, setQuery] = useState('');
    const [typed, setTyped] = useState('');
    const [mode, setMode] = useState<Mode>('search');
    // What the search found for which query and scope: shown only while they are still the ones typed.
    // `more`: the search's first matches alone, the rest still asked for.
    const [found, setFound] = useState<{ query: string; all: boolean; rows: SessionSummary[]; ids: string[]; more: boolean } | null>(null);
    // In the chat, the session it is in is listed (it can be forked, renamed, exported) but not where the highlight starts.
    const [selected, setSelected] = useState(() => Math.max(0, arrange(config.rows, { fold: true, open: new Set() }).findIndex((entry) => entry.row.id !== config.host.live?.id)));
    // The families opened with → (by their root's ID); every other family shows its root alone.
    const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
    const [filters, setFilters] = useState<Filters>(NO_FILTERS);
    const [size, setSize] = useState(config.size());
    const [previewOn, setPreviewOn] = useState(config.size().columns >= 120);
    const [message, setMessage] = useState<string[]>([]);
    const top = useRef(0);
    const previews = useRef(new Map<string, SessionSnapshot | undefined>());
    const holdings = useRef(new Map<string, Holding | undefined>());
    // Actions run one after another, each on the session highlighted when its key was pressed: none is dropped.
    const queue = useRef<Promise<void>>(Promise.resolve());
    const now = config.now();

    // State set by an effect that runs straight after a key is not repainted by @inquirer/core
    // until the next change, so what can be derived is derived here instead.
    const text = query.trim();
    // After an action relists, the last answer stays on screen (rows gone from the listing drop
    // out) until the search over the new rows answers: the highlight never points at nothing meanwhile.
    const known = found !== null && found.query === text && found.all === all ? found.ids : undefined;
    // While a longer or changed query is searched, the last answer in this scope stays listed (a
    // key pressed meanwhile acts on the row on screen, and the list does not blink empty).
    const matches = text === '' ? null : (known ?? (found !== null && found.all === all ? found.ids : []));
    const searching = text !== '' && (known === undefined || found?.rows !== rows);
    const more = text !== '' && known !== undefined && found?.more === true;
    // The rows by ID, made once a query needs them (a map of every row is 20–40 ms at 100,000
    // sessions, on the way to the first full paint that shows none of it).
    const rowsById = useMemo(() => {
      let ids: Map<string, SessionSummary> | undefined;
      return (): Map<string, SessionSummary> => (ids ??= new Map(rows.map((row) => [row.id, row])));
    }, [rows]);
    const { matched, shown } = useMemo(() => {
      const ordered = matches === null ? rows : matches.map((id) => rowsById().get(id)).filter((row) => row !== undefined);
      return { matched: ordered.length, shown: filters === NO_FILTERS ? ordered : ordered.filter((row) => passes(row, filters, now)) };
    }, [rows, matches, filters, rowsById]);
    // Folded only while nothing narrows the list: what a query or a filter finds is never hidden.
    const unfiltered = filters.branch === null && filters.status === null && filters.days === null;
    const fold = text === '' && unfiltered;
    // A fork made while a query was typed, highlighted once the query is cleared.
    const pending = useRef<string | undefined>(undefined);
    const waitingAt = (id: string): number => revealed(rows.filter((row) => passes(row, filters, now)), id, { fold: unfiltered, open }).at;
    const entries = useMemo(() => arrange(shown, { fold, open }), [shown, fold, open]);
    const entry = entries[Math.min(selected, entries.length - 1)];
    const current = entry?.row;
    const height = listHeight(config.widths, size.columns, size.lines, previewOn, saidLines(config.widths, message, size.columns).length);
    top.current = scrolled(top.current, selected, height, entries.length);
    const live = config.host.live?.id;
    const holding = (id: string): Holding | undefined => (id === live ? { by: 'this' } : holdings.current.get(id));

    // Listings end out of order (Tab, an action): only the last one asked is taken.
    const listed = useRef(0);
    const take = (fresh: SessionSummary[], part: boolean): void => {
      setListing({ rows: fresh, partial: part });
    };
    const failed = (err: unknown): void => setMessage([`Could not list: ${err instanceof Error ? err.message : String(err)}`]);
    /** The scope's rows: its newest painted at once (with `newest`), then all of them. */
    const load = (every: boolean, newest: boolean): void => {
      const asked = ++listed.current;
      const whole = (): Promise<void> => config.list(every).then((fresh) => void (listed.current === asked && take(fresh, false)));
      if (!newest) return void whole().catch(failed);
      void config.list(every, FIRST_ROWS).then((head) => {
        if (listed.current !== asked) return;
        const more = head.length >= FIRST_ROWS;
        take(head, more);
        return more ? whole() : undefined;
      }).catch(failed);
    };
    // The first paint showed the newest rows: the rest follow, so scrolling, filters and searches reach every session.
    useEffect(() => {
      if (config.partial === true) load(config.all, false);
    }, []);
    useEffect(() => config.onResize(() => setSize(config.size())), []);
    // A terminal that went away fails the prompt's readline as it closes (setRawMode EIO), and a
    // readline passes its input's errors on: unheard, that one would end the process before the
    // host has saved anything. The host hears the terminal's loss on the input itself. Never
    // removed: the prompt's effects are cleared before its readline closes.
    useEffect((rl) => void (rl as unknown as NodeJS.EventEmitter).on('error', () => {}), []);
    // The query's matches: only the answer to the last search asked is taken.
    const latest = useRef('');
    latest.current = text;
    const asked = useRef(0);
    useEffect(() => {
      const search = ++asked.current;
      if (text === '') return;
      // Searches end out of order, and the same query is asked again over a new scope's rows (after
      // Tab or an action): an earlier answer taken last would leave the screen searching for ever.
      /** Shows an answer to the last search asked; true when more matches are to be asked for. */
      const take = (answer: Found): boolean => {
        if (asked.current !== search) return false;
        setFound({ query: text, all, rows, ...answer });
        return answer.more;
      };
      // The first screenfuls of matches painted at once; every match (the count, the rows below)
      // once typing pauses: asked at each keystroke, that search (half a second at 100,000
      // sessions) would hold up the next keystroke's repaint.
      const rest = (): Promise<void> | undefined =>
        asked.current === search ? config.find(rows, text, all).then((answer) => void take(answer)) : undefined;
      void config.find(rows, text, all, FIRST_ROWS)
        .then((first) => (take(first) ? new Promise((resolve) => setTimeout(resolve, QUIET_MS)).then(rest) : undefined))
        .catch((err: unknown) => setMessage([`The search failed: ${err instanceof Error ? err.message : String(err)}`]));
    }, [text, all, rows]);
    // The highlighted session's transcript, read without its lock, once.
    const previewId = previewOn ? current?.id : undefined;
    useEffect(() => {
      if (previewId === undefined || previews.current.has(previewId)) return;
      const reading = config.host.live?.id === previewId ? Promise.resolve(config.host.live.copyState()) : config.host.sessions.read(previewId);
      void reading.then(
        (snapshot) => previews.current.set(previewId, snapshot),
        () => previews.current.set(previewId, undefined),
      ).finally(() => repaint());
    }, [previewId]);
    // Who holds the open sessions on screen (a crashed run leaves `open` with nobody behind it).
    const page = entries.slice(top.current, top.current + height).map((e) => e.row).filter((row) => row.status === 'open' && row.id !== live && !holdings.current.has(row.id));
    const pageKey = page.map((row) => row.id).join(' ');
    useEffect(() => {
      if (page.length === 0) return;
      void Promise.all(
        page.map((row) =>
          config.holder(row.id).then(
            (owner) => holdings.current.set(row.id, owner ? { by: 'other', pid: owner.pid, host: owner.host } : undefined),
            () => holdings.current.set(row.id, undefined),
          ),
        ),
      ).then(() => repaint());
    }, [pageKey]);

    /** Puts `text` in the prompt's line (readline edits it; keys that are not editing must not). */
    const setLine = (rl: { clearLine(dir: 0): void; write(text: string): void }, text: string): void => {
      rl.clearLine(0);
      rl.write(text);
    };
    const act = (refused: string, work: () => Promise<ActionOutcome>): void => {
      setMessage(['Working…']);
      queue.current = queue.current.then(() => attempt(refused, work)
        .then(async (outcome) => {
          setMessage(outcome.lines);
          config.notes.push(...outcome.lines);
          if (!outcome.changed) return;
          previews.current.clear();
          holdings.current.clear();
          const asked = ++listed.current;
          const fresh = await config.list(all);
          if (listed.current === asked) take(fresh, false);
          // The new fork's family opened and the fork highlighted: now, or once the query is cleared
          // (a search may not find it).
          if (outcome.select === undefined) return;
          const { at, open: opened } = revealed(fresh.filter((row) => passes(row, filters, config.now())), outcome.select, { fold: unfiltered, open });
          setOpen(opened);
          pending.current = outcome.select;
          if (at >= 0 && latest.current === '') {
            setSelected(at);
            pending.current = undefined;
          }
        })
        .catch((err: unknown) => setMessage([`That failed: ${err instanceof Error ? err.message : String(err)}`])));
    };
    const ACTIONS = {
      fork: (id: string) => act('Not forked', () => forkSession(config.host, id)),
      trash: (id: string) => act('Not moved to the trash', () => trashSession(config.host, id)),
      rename: (id: string, text: string) => act('Not renamed', () => renameSession(config.host, id, text)),
      export: (id: string, text: string) => act('Not exported', () => exportTo(config.host, id, text)),
    };

    useKeypress((key: Key, rl) => {
      const before: KeyState = { query, typed, mode, selected, all, previewOn, filters, open };
      const pendingAt = pending.current === undefined ? undefined : waitingAt(pending.current);
      const { state, effects } = onKey(before, key, rl.line, { entries, entry, height, rows, fold, pendingAt });
      if (state.query !== query) setQuery(state.query);
      if (state.typed !== typed) setTyped(state.typed);
      if (state.mode !== mode) setMode(state.mode);
      if (state.selected !== selected) setSelected(state.selected);
      if (state.all !== all) setAll(state.all);
      if (state.previewOn !== previewOn) setPreviewOn(state.previewOn);
      if (state.filters !== filters) setFilters(state.filters);
      if (state.open !== open) setOpen(state.open);
      for (const effect of effects) {
        switch (effect.kind) {
          case 'line': setLine(rl, effect.text); break;
          case 'done': return done(effect.choice);
          case 'message': setMessage(effect.lines); break;
          case 'pending-taken': pending.current = undefined; break;
          case 'relist': load(effect.all, true); break;
          case 'act': 'text' in effect ? ACTIONS[effect.action](effect.id, effect.text) : ACTIONS[effect.action](effect.id); break;
        }
      }
    });

    const { top: head, bottom } = drawFrame({
      heading: config.heading,
      all,
      projectPath: config.projectPath,
      total: rows.length,
      partial,
      query: text,
      matched,
      shown: shown.length,
      entries,
      selected: Math.min(selected, Math.max(0, entries.length - 1)),
      top: top.current,
      filters,
      label: LABELS[mode],
      typed,
      searching,
      more,
      preview: { on: previewOn, snapshot: current ? previews.current.get(current.id) : undefined },
      holding,
      message,
      now,
      columns: size.columns,
      lines: size.lines,
      color: config.color,
      widths: config.widths,
    });
    return [head, bottom];
  });
}
