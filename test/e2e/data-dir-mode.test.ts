import { chmodSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runPiped } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('the data directory', () => {
  it('is made private (0700) when found open to others, and said once', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    chmodSync(home, 0o755);
    const first = await runPiped([], 'hello\n/quit\n', { home, cwd });
    expect(first.code).toBe(0);
    expect(first.stderr.split('\n')[0]).toBe(`chatkeep: Made the data directory ${home} private (mode 0700; it was 0755): it holds your conversations.`);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    const second = await runPiped(['sessions', 'list'], '', { home, cwd });
    expect(second.code).toBe(0);
    expect(second.stderr).toBe('');
  });
});
