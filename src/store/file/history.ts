import { appendFile, readFile } from 'node:fs/promises';
import { FILE_MODE } from './atomic-write.js';
import { HISTORY_LINES } from '../../session/format/store.js';
import { errno } from '../../util/errno.js';

/** How many entries `load()` returns (like Node's REPL history). */

/**
 * A project's input history: one JSON string per line (so multi-line input survives), newest
 * appended, mode 0600, redacted before it is written.
 */
export function createHistory(path: string, redact: (text: string) => string): {
  load(): Promise<string[]>;
  append(line: string): Promise<void>;
} {
  return {
    async load() {
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (err) {
        if (errno(err) === 'ENOENT') return [];
        throw err;
      }
      const entries: string[] = [];
      for (const line of text.split('\n')) {
        if (!line) continue;
        try {
          const value: unknown = JSON.parse(line);
          if (typeof value === 'string') entries.push(value);
        } catch {
          entries.push(line); // a torn or hand-edited line is still the user's text
        }
      }
      return entries.slice(-HISTORY_LINES);
    },
    async append(line: string) {
      if (!line.trim()) return;
      await appendFile(path, `${JSON.stringify(redact(line))}\n`, { mode: FILE_MODE });
    },
  };
}
