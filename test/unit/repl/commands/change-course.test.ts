import { describe, expect, it } from 'vitest';
import { copy } from '../../../../src/repl/commands/copy.js';
import { model } from '../../../../src/repl/commands/model.js';
import { provider } from '../../../../src/repl/commands/provider.js';
import { retry } from '../../../../src/repl/commands/retry.js';
import { status } from '../../../../src/repl/commands/status.js';
import { title } from '../../../../src/repl/commands/title.js';
import { MAX_CLIPBOARD_BYTES } from '../../../../src/terminal/clipboard.js';
import { createMockCommandContext } from '../../../helpers/mock-command-context.js';

const content = (result: Awaited<ReturnType<typeof title.run>>): string => (result.type === 'message' ? result.content : '');

describe('/provider and /model', () => {
  it('switch, recording the choice in the session with source command', async () => {
    const ctx = await createMockCommandContext({ env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } });
    expect(content(await provider.run(ctx, 'OpenAI tiny'))).toBe('Now using openai tiny (127.0.0.1:9) for the next turns (recorded in the session).\nThe price and context window of model tiny are unknown to chatkeep: no cost estimate and no /compact offer before the window fills for it.');
    expect(ctx.session.current.provider).toEqual({ name: 'openai', model: 'tiny', source: 'command' });
    expect(content(await model.run(ctx, ''))).toBe('Model: tiny (openai). Switch with /model NAME.');
    expect(content(await model.run(ctx, 'tiny'))).toBe('Already using openai tiny (127.0.0.1:9).');
    expect(content(await model.run(ctx, 'bigger'))).toBe('Now using openai bigger (127.0.0.1:9) for the next turns (recorded in the session).\nThe price and context window of model bigger are unknown to chatkeep: no cost estimate and no /compact offer before the window fills for it.');
    expect(ctx.services.chat.provider.model).toBe('bigger');
  });

  it('refuse bad arguments in one line, keeping the assistant', async () => {
    const ctx = await createMockCommandContext();
    expect(content(await provider.run(ctx, 'openai a b'))).toBe('Too many words: /provider NAME [MODEL] (e.g. /provider openai gpt-4o-mini).');
    expect(content(await provider.run(ctx, 'echo big'))).toBe('echo has no models: /provider echo.');
    expect(content(await provider.run(ctx, 'echo'))).toBe('Already using echo (offline).');
    expect(content(await provider.run(ctx, 'openai'))).toBe('OPENAI_API_KEY is not set: export it and start chatkeep again. Still using echo (offline).');
    expect(content(await provider.run(ctx, ''))).toBe('Assistant: echo (offline). Switch with /provider NAME [MODEL] (echo, anthropic, openai).');
    expect(ctx.services.chat.provider.name).toBe('echo');
  });
});

describe('/title', () => {
  it('renames, shows, and refuses what is no title', async () => {
    const ctx = await createMockCommandContext();
    expect(content(await title.run(ctx, '  Plan  '))).toBe(`Renamed ${ctx.session.current.id} to "Plan".`);
    expect(content(await title.run(ctx, ''))).toBe('Title: "Plan". Rename with /title TEXT.');
    expect(content(await title.run(ctx, 'two\nlines'))).toBe('A title is one line: /title TEXT.');
    // Journaled, not saved: no snapshot is written.
    expect(ctx.memory.snapshotOf(ctx.session.current.id)).toBeUndefined();
  });
});

describe('/retry and /copy', () => {
  it('supersede the earlier answers and copy the newest reply', async () => {
    const ctx = await createMockCommandContext();
    await ctx.session.current.append({ role: 'user', content: 'q' });
    await ctx.session.current.append({ role: 'assistant', content: 'a1' });
    expect(await retry.run(ctx, '')).toEqual({ type: 'retry', content: 'Asking again: q (the earlier answer is kept, marked superseded)' });
    expect(ctx.session.current.messages[1]!.superseded).toBe(true);
    expect(content(await copy.run(ctx, ''))).toBe('Nothing to copy yet: no reply in this session.');
    await ctx.session.current.append({ role: 'assistant', content: 'a2' });
    expect(content(await copy.run(ctx, ''))).toBe('Copied the last reply (2 characters) to the clipboard.');
    expect(ctx.services.clipboard.written).toEqual(['a2']);
  });

  it('refuses a reply too long for a terminal to take', async () => {
    const ctx = await createMockCommandContext();
    await ctx.session.current.append({ role: 'assistant', content: 'é'.repeat(MAX_CLIPBOARD_BYTES) });
    expect(content(await copy.run(ctx, ''))).toBe('Cannot copy: the reply is 148 kB, more than terminals take at once (74 kB). Select it on screen instead.');
    expect(ctx.services.clipboard.written).toEqual([]);
  });
});

describe('/status', () => {
  it('prints the facts Session.status() reports, one per line', async () => {
    const ctx = await createMockCommandContext();
    const lines = content(await status.run(ctx, '')).split('\n');
    expect(lines.map((l) => l.split(/\s{2,}/)[0])).toEqual(['Session', 'Stored in', 'Lock', 'Last save', 'Next save', 'Journal', 'Assistant', 'System', 'Tokens']);
    expect(lines).toContain('Next save  autosave is off (/save and leaving still save)');
    expect(lines).toContain('Tokens     none reported');
  });
});
