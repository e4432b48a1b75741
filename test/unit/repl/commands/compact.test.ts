import { describe, expect, it } from 'vitest';
import { compact } from '../../../../src/repl/commands/compact.js';
import { echoSummary } from '../../../../src/providers/echo.js';
import { contextWindowOf } from '../../../../src/models/context-window.js';
import { priceOf } from '../../../../src/models/cost.js';
import { contextFill, offerCompaction, summaryInstruction } from '../../../../src/cli/chat/compact-turn.js';
import type { Screen } from '../../../../src/terminal/screen.js';
import type { Message } from '../../../../src/session/api/data.js';
import { createMockCommandContext } from '../../../helpers/mock-command-context.js';

const at = new Date(0);
const reply = (inputTokens: number, model?: string): Message => ({
  role: 'assistant', content: 'ok', timestamp: at, usage: { inputTokens, outputTokens: 0 }, ...(model ? { model } : {}),
});

describe('/compact', () => {
  it('with too few messages says so in one line and changes nothing; otherwise asks the REPL to compact, with the focus', async () => {
    const ctx = await createMockCommandContext();
    await ctx.session.current.append({ role: 'user', content: 'a' });
    await ctx.session.current.append({ role: 'assistant', content: 'b' });
    expect(await compact.run(ctx, '')).toEqual({
      type: 'message', level: 'info', content: 'Nothing to compact yet: /compact summarises the messages before your last exchange, and there are 0.',
    });
    await ctx.session.current.append({ role: 'user', content: 'c' });
    expect(await compact.run(ctx, '  the   auth flow ')).toEqual({ type: 'compact', focus: 'the auth flow' });
    expect(await compact.run(ctx, '')).toEqual({ type: 'compact', focus: null });
    expect(ctx.session.current.archived).toEqual([]);
  });

  it('asks for a summary steered by the focus; echo answers it deterministically', () => {
    expect(summaryInstruction(null)).not.toContain('Focus on');
    expect(summaryInstruction('tests')).toMatch(/ Focus on: tests$/);
    const messages: Message[] = [
      { role: 'user', content: 'hi', timestamp: at },
      { role: 'assistant', content: 'hello', timestamp: at },
      { role: 'user', content: summaryInstruction('x'), timestamp: at },
    ];
    expect(echoSummary(messages, 'x')).toBe('Summary of 2 messages (focus: x): you said "hi".');
  });

  it('offers compaction past 80% of a known model\'s context window, and never for an unknown model', async () => {
    const lines: string[] = [];
    const screen = { status: (text: string) => lines.push(text) } as unknown as Screen;
    expect(contextWindowOf('claude-sonnet-4-5-20250929')).toBe(200_000);
    expect(contextWindowOf('llama3.1')).toBeUndefined();
    expect(contextFill([reply(159_999, 'claude-sonnet-4-5')])).toEqual({ used: 159_999, window: 200_000, model: 'claude-sonnet-4-5' });
    expect(contextFill([reply(190_000)])).toBeUndefined();
    expect(contextFill([reply(190_000, 'llama3.1')])).toBeUndefined();
    await offerCompaction([reply(159_999, 'claude-sonnet-4-5')], screen);
    expect(lines).toEqual([]);
    await offerCompaction([reply(160_000, 'claude-sonnet-4-5')], screen);
    expect(lines).toEqual([
      'Context 80% full (160,000 of 200,000 tokens of claude-sonnet-4-5): /compact [focus] summarises the earlier messages to make room (--auto-compact does it without asking).',
    ]);
    // The price table still matches the same names (both use one lookup).
    expect(priceOf('gpt-4o-mini-2024-07-18')).toEqual({ input: 0.15, output: 0.6 });
  });
});
