import { describe, expect, it } from 'vitest';
import { builtinCommands } from '../../../src/repl/commands/index.js';
import { completeLine } from '../../../src/repl/complete.js';
import { createMockCommandContext } from '../../helpers/mock-command-context.js';

async function contextWithSessions() {
  const ctx = await createMockCommandContext();
  // Each holds a message: a session is listed (and offered) once it holds one.
  for (const id of ['session-20261122-143022', 'session-20261122-150000', 'other-1']) {
    await ctx.memory.stored({ id, messages: [{ role: 'user', content: 'hi', timestamp: ctx.memory.now() }] });
  }
  return ctx;
}

describe('completeLine', () => {
  it('completes a unique command name with a trailing space', async () => {
    expect(await completeLine('/sa', builtinCommands, await contextWithSessions())).toEqual([['/save '], '/sa']);
  });

  it('lists every command for a bare slash', async () => {
    const [hits] = await completeLine('/', builtinCommands, await contextWithSessions());
    expect(hits).toEqual(expect.arrayContaining(['/help', '/sessions', '/save', '/load', '/reset', '/quit', '/exit']));
  });

  it('completes session IDs after /load', async () => {
    expect(await completeLine('/load session-20261122-1', builtinCommands, await contextWithSessions())).toEqual([
      // Every row has the same time, in the order made; the context's own session holds no message yet, so it is not offered.
      ['session-20261122-143022', 'session-20261122-150000'],
      'session-20261122-1',
    ]);
  });

  it('completes provider names after /provider, and nothing for commands without arguments', async () => {
    expect(await completeLine('/provider op', builtinCommands, await contextWithSessions())).toEqual([['openai'], 'op']);
    expect(await completeLine('/quit x', builtinCommands, await contextWithSessions())).toEqual([[], 'x']);
  });

  it('offers nothing for chat text', async () => {
    expect(await completeLine('hello', builtinCommands, await contextWithSessions())).toEqual([[], 'hello']);
  });
});
