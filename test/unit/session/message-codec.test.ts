import { describe, expect, it } from 'vitest';
import { tmpHome } from '../../helpers/tmp-home.js';
import { ChatkeepError, openSessions, UserError } from '../../../src/index.js';
import { InvalidMessageError } from '../../../src/session/api/errors.js';
import { decodeMessage, encodeMessage, journaledFrom, storedMessage } from '../../../src/session/model/message-codec.js';
import type { NewMessage } from '../../../src/session/api/data.js';

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

  it('refuses a field it has no place for, naming it and where it belongs, instead of dropping it', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome(), env: {} });
    const s = await sessions.create();
    const err = await s.append({ role: 'user', content: 'x', traceId: 't1' } as unknown as NewMessage).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidMessageError);
    expect((err as Error).message).toBe('Bad message: `traceId` is not a message field: keep what chatkeep has no field for under `metadata`.');
    const kept = await s.append({ role: 'user', content: 'x', metadata: { traceId: 't1' } });
    expect(kept.metadata).toEqual({ traceId: 't1' });
    await s.close();
  });

  it('checks parts and JSON values, with the field that is wrong', () => {
    const bad: [unknown, string][] = [
      [{ role: 'user', content: [{ type: 'video', url: 'x' }] }, 'parts[0].type'],
      [{ role: 'user', content: [{ type: 'image' }] }, 'parts[0]'],
      [{ role: 'user', content: [{ type: 'image', data: 'AAAA' }] }, 'parts[0].mediaType'],
      [{ role: 'user', content: [{ type: 'text', text: 3 }] }, 'parts[0].text'],
      [{ role: 'user', content: 'x', parts: [] , metadata: { at: new Date() } }, 'metadata.at'],
      [{ role: 'user', content: [{ type: 'text', text: 'a' }], parts: [] }, 'parts'],
      [{ role: 'user', content: 'x', metadata: { n: Number.NaN } }, 'metadata.n'],
      [{ role: 'assistant', content: 'x', toolCalls: [{ id: 'c', name: 'n', arguments: { f: () => 1 } }] }, 'toolCalls[0].arguments.f'],
      [{ role: 'user', content: 'x', usage: { inputTokens: 1, outputTokens: 1, details: [] } }, 'usage.details'],
    ];
    for (const [message, field] of bad) {
      let caught: unknown;
      try {
        storedMessage(message as NewMessage, keep, AT);
      } catch (err) {
        caught = err;
      }
      expect(caught, field).toBeInstanceOf(InvalidMessageError);
      expect((caught as InvalidMessageError).field).toBe(field);
    }
  });

  it('takes content as parts (its text worked out), keeps keys such as __proto__ as data, and copies what it is given', () => {
    const metadata = JSON.parse('{"__proto__": {"polluted": true}, "list": [1, {"a": null}]}') as Record<string, unknown>;
    const m = storedMessage({ role: 'assistant', content: [{ type: 'text', text: 'one' }, { type: 'refusal', text: 'no' }, { type: 'image', url: 'https://x/y.png' }], metadata } as NewMessage, keep, AT);
    expect(m.content).toBe('one\nno');
    expect(m.parts).toHaveLength(3);
    expect(Object.keys(m.metadata!)).toEqual(['__proto__', 'list']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    (metadata.list as unknown[]).push(2);
    expect(m.metadata!.list).toEqual([1, { a: null }]);
    expect(JSON.parse(JSON.stringify(encodeMessage(m))).metadata).toEqual(JSON.parse('{"__proto__": {"polluted": true}, "list": [1, {"a": null}]}'));
  });

  it('redacts secrets from every text it keeps; a reasoning text that changed loses its signature, which no longer vouches for it', () => {
    const redact = (text: string): string => text.replaceAll('sk-secret', '[redacted]');
    const m = storedMessage(
      {
        role: 'assistant', content: 'key sk-secret',
        parts: [{ type: 'reasoning', text: 'the key is sk-secret', signature: 'sig' }, { type: 'reasoning', text: 'clean', signature: 'sig2' }],
        toolCalls: [{ id: 'c', name: 'n', arguments: { key: 'sk-secret' } }],
        metadata: { note: 'sk-secret' }, native: ['sk-secret'],
      },
      redact,
      AT,
    );
    expect(JSON.stringify(m)).not.toContain('sk-secret');
    expect(m.parts).toEqual([{ type: 'reasoning', text: 'the key is [redacted]' }, { type: 'reasoning', text: 'clean', signature: 'sig2' }]);
  });

  it('reads back leniently: a known field of the wrong type is left out, a field of a newer build is kept', () => {
    const read = journaledFrom({ role: 'user', content: 'x', timestamp: AT.toISOString(), usage: 'lots', parts: 'no', fromTheFuture: { a: 1 } });
    expect(read).toEqual({ role: 'user', content: 'x', timestamp: AT.toISOString(), fromTheFuture: { a: 1 } });
  });
});
