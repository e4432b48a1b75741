/**
 * Splits an input line into a slash command or a chat message. Pure: no I/O.
 */
import type { SlashCommand } from './types.js';

/** What a line of input means. */
export type ParsedLine =
  | { kind: 'empty' }
  | { kind: 'chat'; text: string }
  | { kind: 'command'; command: SlashCommand; name: string; args: string }
  | { kind: 'unknown'; name: string; suggestion?: string };

/**
 * Parses one line. `/name args` runs a command (names and aliases, case-insensitive); `//text`
 * sends `/text` as a chat message; anything else is chat. An unknown name comes back with the
 * nearest command name when it is a small edit away.
 */
export function parseSlashCommand(line: string, commands: readonly SlashCommand[]): ParsedLine {
  const trimmed = line.trim();
  if (trimmed === '') return { kind: 'empty' };
  if (trimmed.startsWith('//')) return { kind: 'chat', text: line.trim().slice(1) };
  if (!trimmed.startsWith('/') || trimmed.includes('\n')) return { kind: 'chat', text: line };
  const match = /^\/(\S*)\s*([\s\S]*)$/.exec(trimmed);
  const name = (match?.[1] ?? '').toLowerCase();
  const args = (match?.[2] ?? '').trim();
  const command = findCommand(name, commands);
  if (command) return { kind: 'command', command, name, args };
  const suggestion = suggestCommand(name, commands);
  return suggestion ? { kind: 'unknown', name, suggestion } : { kind: 'unknown', name };
}

/** The command called `name` or aliased so, if any. */
export function findCommand(name: string, commands: readonly SlashCommand[]): SlashCommand | undefined {
  const wanted = name.toLowerCase();
  return commands.find((c) => c.name === wanted || (c.aliases ?? []).includes(wanted));
}

/** The closest command name within a small edit distance (at most 2, and less than the word itself). */
export function suggestCommand(name: string, commands: readonly SlashCommand[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const command of commands) {
    for (const candidate of [command.name, ...(command.aliases ?? [])]) {
      // No near miss is more than 2 edits away, and the distance is at least the difference in
      // length: a pasted megabyte after `/` must not build a megabyte-sized table per command.
      if (Math.abs(name.length - candidate.length) > 2) continue;
      const distance = editDistance(name, candidate);
      // Replacing every letter of a short alias is no "near miss".
      if (distance >= candidate.length) continue;
      if (!best || distance < best.distance) best = { name: command.name, distance };
    }
  }
  if (!best || name === '') return undefined;
  // Two edits only from six letters on: with more short commands, two edits of a four-letter
  // word reach unrelated ones (`nope` → `copy`).
  const limit = Math.min(2, Math.max(1, Math.floor(name.length / 3)));
  return best.distance <= limit ? best.name : undefined;
}

/** Levenshtein distance, with adjacent transpositions counted as one edit ("hlep" → "help"). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
