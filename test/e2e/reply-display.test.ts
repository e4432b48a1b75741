import { describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { runPiped, startAtPrompt, type RunOptions } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

/** A promise and the function that resolves it: a gate the test opens. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

function runOptions(server: FakeLlmServer, env: Record<string, string> = {}): RunOptions {
  return {
    home: tmpHome(),
    cwd: tmpHome('chatkeep-project-'),
    env: { ANTHROPIC_API_KEY: 'sk-test-not-real', ANTHROPIC_BASE_URL: server.origin, CHATKEEP_MAX_RETRIES: '0', ...env },
  };
}

const ERASE_LINE = '\r\x1b[K';

describe('while the assistant thinks', () => {
  it('a terminal shows a moving spinner until the first words, then erases it', async () => {
    const thinking = gate();
    const server = await startFakeLlmServer('anthropic', { text: ['Ready', ' now.'], before: { 0: thinking.opened } });
    const { run } = await startAtPrompt([], runOptions(server));
    const from = run.screen().length;
    run.line('hello');
    await run.waitFor('thinking…', { from });
    // It moves: a second frame replaces the first.
    await run.waitFor('⠙', { from });
    thinking.open();
    await run.waitFor('Ready now.\n', { from });
    const raw = run.output();
    const lastFrame = raw.lastIndexOf('thinking…');
    // Erased before the reply is written, so the reply starts on a clean line.
    expect(raw.indexOf(ERASE_LINE, lastFrame)).toBeGreaterThan(lastFrame);
    expect(raw.indexOf(ERASE_LINE, lastFrame)).toBeLessThan(raw.indexOf('Ready', lastFrame));
    expect(await run.quit()).toBe(0);
  });

  it('a pipe gets no spinner, only the reply', async () => {
    const thinking = gate();
    const server = await startFakeLlmServer('anthropic', { text: ['Ready', ' now.'], before: { 0: thinking.opened } });
    setTimeout(thinking.open, 300);
    const result = await runPiped([], 'hello\n', runOptions(server));
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Ready now.\n');
    expect(result.stdout + result.stderr).not.toMatch(/thinking|[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
  });
});

const MARKDOWN = [
  '# Pl',
  'an\n',
  '\nSome **bo',
  'ld** and *soft* text with `npm test` and a [link](https://example.com/docs).\n\n',
  '- first\n- second\n\n',
  '```ts\nconst answer',
  ' = 42;\n```\n',
];
const SOURCE = MARKDOWN.join('');

describe('replies rendered as Markdown', () => {
  it('a terminal gets headings, emphasis, code, links, lists and fenced code, line by line; the session stores the source', async () => {
    const [afterHeading, midLine] = [gate(), gate()];
    const server = await startFakeLlmServer('anthropic', {
      text: MARKDOWN,
      usage: { input: 5, output: 30 },
      before: { 2: afterHeading.opened, 3: midLine.opened },
    });
    const options = runOptions(server);
    const { run, id } = await startAtPrompt([], options);
    const from = run.screen().length;
    run.line('plan?');
    // The heading is rendered while the rest of the reply has not arrived yet.
    await run.waitFor('# Plan', { from });
    afterHeading.open();
    // The line in progress shows as it arrives, as plain text…
    await run.waitFor('Some', { from });
    expect((await run.visible()).join("\n")).toMatch(/› plan\?\n# Plan\n\nSome$/);
    midLine.open();
    await run.waitFor('const answer = 42;', { from });
    await run.prompt();
    // …and is replaced by its rendered form once complete: what is on screen in the end.
    const seen = (await run.visible()).join("\n");
    const reply = seen.slice(seen.lastIndexOf('› plan?'));
    expect(reply).toBe(
      [
        '› plan?',
        '# Plan',
        '',
        'Some bold and soft text with npm test and a link (https://example.com/docs).',
        '',
        '• first',
        '• second',
        '',
        '  ts',
        '    const answer = 42;',
        '› ',
      ].join('\n').trimEnd(),
    );
    // Rendered lines are written once: nothing but the line in progress is ever redrawn.
    expect(run.screen().slice(from).split('const answer = 42;')).toHaveLength(2);
    expect(run.screen().slice(from).split('Some bold')).toHaveLength(2);
    // Styled: bold, italic, code in colour.
    const raw = run.output();
    expect(raw).toContain('\x1b[1mbold\x1b[22m');
    expect(raw).toContain('\x1b[3msoft\x1b[23m');
    expect(raw).toMatch(/\x1b\[33mnpm test\x1b\[39m/);
    expect(await run.quit()).toBe(0);

    const shown = await runPiped(['sessions', 'show', id, '--json'], '', options);
    const session = JSON.parse(shown.stdout) as { messages: { role: string; content: string }[] };
    expect(session.messages[1]).toMatchObject({ role: 'assistant', content: SOURCE });
  });

  it('--raw and NO_COLOR show the text as written; a pipe prints it as written', async () => {
    const server = await startFakeLlmServer('anthropic', { text: MARKDOWN });
    for (const [args, env] of [[['--raw'], {}], [[], { NO_COLOR: '1' }]] as const) {
      const { run } = await startAtPrompt([...args], runOptions(server, env));
      const from = run.screen().length;
      run.line('plan?');
      await run.waitFor('= 42;\n```\n', { from });
      expect(run.screen().slice(from)).toContain('# Plan\n\nSome **bold** and *soft* text with `npm test`');
      expect(await run.quit()).toBe(0);
    }
    const piped = await runPiped([], 'plan?\n', runOptions(server));
    expect(piped.stdout).toBe(`${SOURCE}\n`);
  });
});
