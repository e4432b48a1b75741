/**
 * `chatkeep sessions show ID --archived`: what /reset and /compact archived, each part under a
 * line saying which did it, when and what came after, then the live conversation; piped (ISO
 * times) and on a terminal of 80 and 120 columns (relative times, nothing wrapped).
 */
import { describe, expect, it } from 'vitest';
import { runPiped, savedChat, spawnPty } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

const ISO = '\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z';

async function archivedTwice(): Promise<{ options: { home: string; cwd: string }; id: string }> {
  const options = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
  const id = await savedChat('a\nb\n/reset\nc\nd\ne\n/compact\nf\n/quit\n', options);
  return { options, id };
}

describe('chatkeep sessions show ID --archived', () => {
  it('piped: each archived part in order, said to be /reset or /compact, then the live conversation', async () => {
    const { options, id } = await archivedTwice();
    const run = await runPiped(['sessions', 'show', id, '--archived'], '', options);
    expect(run.code).toBe(0);
    const body = run.stdout.slice(run.stdout.indexOf('\n\n') + 2).replace(new RegExp(`\\[${ISO}\\]\\n`, 'g'), '');
    expect(body).toMatch(
      new RegExp(
        [
          `^\\[archived by /reset, ${ISO}: 4 messages, then a fresh start\\]`,
          '',
          '› a\n\nEcho: a \\(read 1 message\\)\n\n› b\n\nEcho: b \\(read 3 messages\\)\n',
          `\\[archived by /compact, ${ISO}: 4 messages, then a summary\\]`,
          '',
          '› c\n\nEcho: c \\(read 1 message\\)\n\n› d\n\nEcho: d \\(read 3 messages\\)\n',
          '\\[the live conversation\\]',
          '',
          '\\[summary by /compact of earlier messages; 8 messages archived in this session \\(--json lists them under archived\\)\\]',
          'Summary of 4 messages: you said "c"; "d".\n',
          '› e\n\nEcho: e \\(read 5 messages\\)\n\n› f\n\nEcho: f \\(read 4 messages\\)\n+$',
        ].join('\n'),
      ),
    );
    // Without --archived, as before: the summary and the live messages only.
    const plain = await runPiped(['sessions', 'show', id], '', options);
    expect(plain.stdout).not.toContain('› a');
    expect(plain.stdout).not.toContain('[archived by');
  });

  it('says when nothing was archived', async () => {
    const options = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const id = await savedChat('a\n/quit\n', options);
    const run = await runPiped(['sessions', 'show', id, '--archived'], '', options);
    expect(run.stdout).toContain('\n[nothing archived: /compact and /reset have not been used in this session]\n');
  });

  for (const columns of [80, 120]) {
    it(`on a terminal of ${columns} columns, with relative times and no line wrapped`, async () => {
      const { options, id } = await archivedTwice();
      const run = spawnPty(['sessions', 'show', id, '--archived'], { ...options, columns });
      expect(await run.exited).toBe(0);
      const lines = await run.visible();
      expect(lines).toContainEqual(expect.stringMatching(/^\[archived by \/reset, (less than a minute|\d+ minutes?) ago: 4 messages, then a fresh start\]$/));
      expect(lines).toContainEqual(expect.stringMatching(/^\[archived by \/compact, (less than a minute|\d+ minutes?) ago: 4 messages, then a summary\]$/));
      const heads = lines.flatMap((line, i) => (line.startsWith('[archived by') || line === '[the live conversation]' ? [i] : []));
      expect(heads).toHaveLength(3);
      for (const i of heads) expect(await run.wrapped()).not.toContain(i + 1);
    });
  }
});
