import { describe, expect, it } from 'vitest';
import { quit } from '../../../../src/repl/commands/quit.js';
import { createMockCommandContext } from '../../../helpers/mock-command-context.js';

describe('/quit', () => {
  it('asks the REPL to quit and is also /exit', async () => {
    const ctx = await createMockCommandContext();
    expect(await quit.run(ctx, '')).toEqual({ type: 'quit' });
    expect(quit.aliases).toContain('exit');
  });
});
