import { describe, expect, it } from 'vitest';
import { builtinCommands } from '../../../../src/repl/commands/index.js';
import { help } from '../../../../src/repl/commands/help.js';
import { createMockCommandContext } from '../../../helpers/mock-command-context.js';

describe('/help', () => {
  it('lists every command with its usage and summary', async () => {
    const ctx = await createMockCommandContext();
    const result = await help.run(ctx, '');
    expect(result.type).toBe('message');
    if (result.type !== 'message') return;
    for (const command of builtinCommands) {
      expect(result.content).toContain(command.args ? `/${command.name} ${command.args}` : `/${command.name}`);
      expect(result.content).toContain(command.summary);
    }
    expect(result.content).toContain('(also /exit)');
  });

  it('shows one command, found by name or alias, with or without the slash', async () => {
    const ctx = await createMockCommandContext();
    expect(await help.run(ctx, 'save')).toEqual({
      type: 'message',
      level: 'info',
      content: '/save [title]\n  write a snapshot now, optionally setting the title',
    });
    const exit = await help.run(ctx, '/exit');
    expect(exit.type === 'message' && exit.content).toMatch(/^\/quit\n/);
  });

  it('says so for an unknown command', async () => {
    const ctx = await createMockCommandContext();
    expect(await help.run(ctx, 'nope')).toEqual({ type: 'message', level: 'error', content: 'Unknown command /nope. Type /help.' });
  });
});
