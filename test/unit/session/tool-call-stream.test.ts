import { describe, expect, it } from 'vitest';
import { tmpHome } from '../../helpers/tmp-home.js';
import { simulateCrash } from '../../helpers/crash.js';
import { openSessions } from '../../../src/index.js';
import { InvalidMessageError } from '../../../src/session/api/errors.js';

describe('a streamed tool call is journaled as it arrives', () => {
  it('says what is on disk (cut where no secret can be split), and finish() stores the whole calls', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome(), env: {} });
    const s = await sessions.create();
    await s.append({ role: 'user', content: 'go' });
    const reply = s.beginReply();
    expect(await reply.pushToolCall({ index: 0, id: 'call_1', name: 'grep' })).toEqual({ id: 'call_1', name: 'grep', arguments: '' });
    expect(await reply.pushToolCall({ index: 0, arguments: '{"pattern":"ab' })).toEqual({ id: 'call_1', name: 'grep', arguments: '' });
    expect(await reply.pushToolCall({ index: 0, arguments: 'c","path":"src"' })).toEqual({ id: 'call_1', name: 'grep', arguments: '{"pattern":"abc",' });
    await reply.pushToolCall({ index: 1, id: 'call_2', name: 'ls', arguments: '{}' });
    await expect(reply.pushToolCall({ index: -1 })).rejects.toBeInstanceOf(InvalidMessageError);
    const done = await reply.finish();
    expect(done.toolCalls).toEqual([{ id: 'call_1', name: 'grep', arguments: '{"pattern":"abc","path":"src"' }, { id: 'call_2', name: 'ls', arguments: '{}' }]);
    await s.close();
  });

  it('a crash mid-call, with a snapshot taken mid-stream, resumes as an interrupted reply holding the calls as far as shown', async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: home, env: {} });
    const s = await sessions.create();
    await s.append({ role: 'user', content: 'go' });
    const reply = s.beginReply();
    await reply.push('Let me look. ');
    await reply.pushToolCall({ index: 0, id: 'call_1', name: 'grep', arguments: '{"a": 1, ' });
    // The autosave's snapshot journals the reply so far again past its seq (then more arrives).
    await s.save();
    const shown = await reply.pushToolCall({ index: 0, arguments: '"b": 2, "c' });
    await simulateCrash(s);
    const again = await sessions.resume(s.id);
    expect(again.messages.map((m) => [m.role, m.content, m.interrupted ?? false, m.toolCalls ?? null])).toEqual([
      ['user', 'go', false, null],
      ['assistant', 'Let me look. ', true, [shown]],
    ]);
    expect(shown.arguments).toBe('{"a": 1, "b": 2, ');
    await again.close();
  });
});
