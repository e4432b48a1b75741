import { describe, expect, it } from 'vitest';
import { builtinCommands } from '../../../commands/index.js';
import { completeLine } from '../../../src/repl/complete.js';

const ids = async (): Promise<string[]> => ['session-20261122-143022', 'session-20261122-150000', 'other-1'];

describe('completeLine', () => {
  it('completes a unique command name with a trailing space', async () => {
    expect(await completeLine('/sa', builtinCommands, ids)).toEqual([['/save '], '/sa']);
  });

  it('lists every command for a bare slash', async () => {
    const [hits] = await completeLine('/', builtinCommands, ids);
    expect(hits).toEqual(expect.arrayContaining(['/help', '/sessions', '/save', '/load', '/reset', '/quit', '/exit']));
  });

  it('completes session IDs after /load', async () => {
    expect(await completeLine('/load session-20261122-1', builtinCommands, ids)).toEqual([
      ['session-20261122-143022', 'session-20261122-150000'],
      'session-20261122-1',
    ]);
  });

  it('offers nothing for chat text', async () => {
    expect(await completeLine('hello', builtinCommands, ids)).toEqual([[], 'hello']);
  });
});
