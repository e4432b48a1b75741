import { describe, expect, it } from 'vitest';
import { tmpHome } from '../../helpers/tmp-home.js';
import { openSessions } from '../../../src/index.js';
import { copySessions } from '../../../src/session/runtime/copy.js';

describe('copying sessions between stores', () => {
  it('copies, then copies nothing the second time, and never over a different session with the same ID', async () => {
    const cwd = tmpHome('chatkeep-project-');
    const from = await openSessions({ home: tmpHome(), cwd });
    const to = await openSessions({ home: tmpHome(), cwd });
    const a = await from.create({ title: 'a' });
    await a.append({ role: 'user', content: 'one' });
    await a.reset();
    await a.append({ role: 'user', content: 'two' });
    await a.close();
    const b = await from.create({ title: 'b' });
    await b.append({ role: 'user', content: 'three' });
    await b.close();

    const first = await copySessions(from, to, [a.id, b.id]);
    expect(first).toMatchObject({ copied: 2, present: 0, refused: 0, messages: 3 });
    expect((await to.read(a.id)).archived[0]!.messages.map((m) => m.content)).toEqual(['one']);
    expect((await to.list()).map((r) => r.id).sort()).toEqual([a.id, b.id].sort());

    const second = await copySessions(from, to, [a.id, b.id]);
    expect(second).toMatchObject({ copied: 0, present: 2, refused: 0, messages: 3, hash: first.hash });

    // Back the other way: everything is already there.
    expect(await copySessions(to, from, [a.id, b.id])).toMatchObject({ copied: 0, present: 2, hash: first.hash });

    // The target's own session under that ID changes: a copy is refused, and the target keeps its own.
    const held = await to.resume(b.id);
    await held.append({ role: 'user', content: 'only in the target' });
    await held.close();
    const third = await copySessions(from, to, [b.id]);
    expect(third.sessions).toEqual([{ id: b.id, outcome: 'refused', reason: 'the target holds a different session with this ID' }]);
    expect((await to.read(b.id)).messages.map((m) => m.content)).toEqual(['three', 'only in the target']);
  });
});
