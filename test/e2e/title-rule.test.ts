/**
 * One rule for titles, whichever command sets them: a title longer than 200 characters is
 * stored cut to 200, ending in `…`, and the command says it was cut.
 */
import { describe, expect, it } from 'vitest';
import { runPiped } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

async function storedTitle(id: string, where: { home: string; cwd: string }): Promise<string> {
  const shown = await runPiped(['sessions', 'show', id, '--json'], '', where);
  return (JSON.parse(shown.stdout) as { title: string }).title;
}

describe('a title of 250 characters', () => {
  it('is cut to 200 by /title and by /save TITLE alike, saying so', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const [a, b] = ['a'.repeat(250), 'b'.repeat(250)];
    const run = await runPiped([], `hello\n/title ${a}\n`, where);
    expect(run.code).toBe(0);
    const id = /Saved (\S+) \(/.exec(run.stderr)![1]!;
    expect(run.stdout).toContain(`Renamed ${id} to "${'a'.repeat(199)}…" (cut to 200 characters).\n`);
    expect(await storedTitle(id, where)).toBe(`${'a'.repeat(199)}…`);

    const saved = await runPiped(['--session-id', id], `/save ${b}\n`, where);
    expect(saved.stdout).toMatch(/^Saved \S+ as "b+…" \(cut to 200 characters\) \(2 messages\) to /m);
    expect(await storedTitle(id, where)).toBe(`${'b'.repeat(199)}…`);
  });
});
