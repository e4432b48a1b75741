import * as pty from '@lydell/node-pty';
import { describe, expect, it } from 'vitest';
import { drainBeforeDestroy } from '../../torture/pty-drain.js';

describe('a pseudo-terminal read by the tests', () => {
  it("keeps a program's last output that was still unread when it exited", async () => {
    // A paused stream stands for a loaded machine that has not read the output 200 ms after the
    // exit, when node-pty destroys its stream: the last line must still reach the test.
    const term = pty.spawn('/bin/sh', ['-c', 'printf "Saved it.\\nResume with: this\\n"'], { name: 'xterm', cols: 80, rows: 24 });
    let seen = '';
    const received = (data: string): void => void (seen += data);
    term.onData(received);
    drainBeforeDestroy(term, received);
    term.pause();
    await new Promise<void>((resolve) => term.onExit(() => resolve()));
    expect(seen.replace(/\r\n/g, '\n')).toBe('Saved it.\nResume with: this\n');
  });
});
