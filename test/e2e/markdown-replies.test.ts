/**
 * Replies on a terminal render their lists (inline Markdown inside rendered too) and their code
 * blocks, whatever the language: one the highlighter does not know is shown plain, with no
 * warning of the highlighter's and nothing printed twice.
 */
import { describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { startAtPrompt, type RunOptions } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

function runOptions(server: FakeLlmServer): RunOptions {
  return {
    home: tmpHome(),
    cwd: tmpHome('chatkeep-project-'),
    env: { ANTHROPIC_API_KEY: 'sk-test-not-real', ANTHROPIC_BASE_URL: server.origin, CHATKEEP_MAX_RETRIES: '0' },
  };
}

/** Asks `question` and resolves with what the screen shows from the question to the next prompt. */
async function replyOnScreen(text: string[], question: string): Promise<{ shown: string; raw: string }> {
  const server = await startFakeLlmServer('anthropic', { text });
  const { run } = await startAtPrompt([], runOptions(server));
  const from = run.output().length;
  run.line(question);
  await run.waitFor(`› ${question}`);
  await run.waitFor(/\n› $/, { from: run.screen().indexOf(`› ${question}`) + 3 });
  const seen = (await run.visible()).join('\n');
  const shown = seen.slice(seen.lastIndexOf(`› ${question}`));
  const raw = run.output().slice(from);
  expect(await run.quit()).toBe(0);
  return { shown, raw };
}

describe('Markdown lists in a reply', () => {
  it('are drawn as bullets and numbers with their bold, links and nesting rendered', async () => {
    const reply = [
      'Steps:\n\n',
      '- bullet with **bold** and [link](https://example.com)\n',
      '- second\n  - nested *soft*\n',
      '- [x] done\n\n',
      '1. one **b**\n2. two\n',
    ];
    const { shown, raw } = await replyOnScreen(reply, 'steps?');
    expect(shown).toBe(
      [
        '› steps?',
        'Steps:',
        '',
        '• bullet with bold and link (https://example.com)',
        '• second',
        '  • nested soft',
        '• [x] done',
        '',
        '1. one b',
        '2. two',
        '›',
      ].join('\n'),
    );
    expect(raw).toContain('\x1b[1mbold\x1b[22m');
    expect(raw).toContain('\x1b[3msoft\x1b[23m');
  });
});

describe('a code block in a language the highlighter does not know', () => {
  for (const lang of ['foolang', 'jsonc', 'vue', 'hcl']) {
    it(`(${lang}) is shown once, plain or highlighted, with no warning`, async () => {
      const { shown } = await replyOnScreen([`intro line\n\n\`\`\`${lang}\n`, 'x = 1\n', '```\n', '\nafter\n'], `code ${lang}?`);
      expect(shown).not.toMatch(/Could not find|language module/);
      expect(shown).toBe([`› code ${lang}?`, 'intro line', '', `  ${lang}`, '    x = 1', '', 'after', '›'].join('\n'));
    });
  }
});
