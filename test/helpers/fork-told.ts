/**
 * A session lost for good mid-chat (a share revoked, the session deleted): the chat says the
 * conversation goes on in a new session of one's own, and every command shown on quitting is
 * that fork's, never the lost session's (one that would not run).
 */
import { expect } from 'vitest';
import { phrase, type PtyRun } from './pty.js';

/** The fork named in `told` (the screen since the loss, from `from`); quits `run` and checks its lines. Its ID. */
export async function forkTold(run: PtyRun, from: number, told: string, lost: string): Promise<string> {
  const fork = /goes\s+on\s+in\s+new\s+session\s+(\S+)\s+of\s+your\s+own/.exec(told)?.[1];
  expect(fork, told).toBeDefined();
  expect(told).not.toMatch(/another process|took .* over|bug/i);
  expect(await run.quit()).toBe(0);
  const after = run.screen().slice(from);
  expect(after).toMatch(phrase(`chatkeep --session-id ${fork!}`));
  // The whole ID: a fork made in the same second is named `${lost}-2`, which starts with it.
  expect(after).not.toMatch(new RegExp(`${phrase(`--session-id ${lost}`).source}(?![\\w-])`));
  return fork!;
}
