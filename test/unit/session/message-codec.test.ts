import { describe, expect, it } from 'vitest';
import { tmpHome } from '../../helpers/tmp-home.js';
import { ChatkeepError, openSessions, UserError } from '../../../src/index.js';
import { InvalidMessageError } from '../../../src/session/errors.js';
import { decodeMessage, encodeMessage, journaledFrom, storedMessage } from '../../../src/session/message-codec.js';
import type { NewMessage } from '../../../src/session/types.js';

const AT = new Date('2026-11-25T10:00:00.000Z');
const keep = (text: string): string => text;

describe('the message codec', () => {
  it('stores tool-call arguments given as an object as their JSON text, never "[object Object]"', () => {
    const input = { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'grep', arguments: { q: 'x', n: [1, 2] } }] } as unknown as NewMessage;
    expect(storedMessage(input, keep, AT).toolCalls).toEqual([{ id: 'c1', name: 'grep', arguments: '{"q":"x","n":[1,2]}' }]);
  });

  it('refuses a bad message with a typed error naming the field, never a plain TypeError', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome(), env: {} });
    const s = await sessions.create();
    const bad: [unknown, string][] = [
      [{ role: 'robot', content: 'x' }, 'role'],
      [{ role: 'user', content: 42 }, 'content'],
      [{ role: 'user', content: 'x', timestamp: 'yesterday' }, 'timestamp'],
      [{ role: 'assistant', content: '', toolCalls: [{ name: 'grep', arguments: '{}' }] }, 'toolCalls[0].id'],
      [{ role: 'assistant', content: 'x', usage: { inputTokens: -1, outputTokens: 0 } }, 'usage'],
      [null, 'message'],
    ];
    for (const [message, field] of bad) {
      const err = await s.append(message as NewMessage).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidMessageError);
      expect(err).toBeInstanceOf(UserError);
      expect(err).toBeInstanceOf(ChatkeepError);
      expect(err).toMatchObject({ code: 'E_INVALID_MESSAGE', field, exitCode: 2 });
    }
    // Nothing was stored by the refused writes.
    expect(s.messages).toEqual([]);
    await s.close();
  });

  it('encodes for the journal and decodes back to the same message', () => {
    const m = storedMessage(
      { role: 'assistant', content: 'hi', toolCalls: [{ id: 'c', name: 'n', arguments: '{}' }], usage: { inputTokens: 1, outputTokens: 2 }, model: 'm', interrupted: true },
      keep,
      AT,
    );
    const line = JSON.parse(JSON.stringify(encodeMessage(m))) as unknown;
    expect(decodeMessage(journaledFrom(line))).toEqual(m);
  });
});
