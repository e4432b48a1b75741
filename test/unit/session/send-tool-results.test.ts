/**
 * `messagesToSend` gives every API a conversation it accepts, whatever the stored one holds: a
 * result whose call is gone is left out, a second or late result for an answered call too, and
 * a turn's parallel calls each in a message of their own (the Responses API's shape) keep the
 * results that came. Checked with the validating fake server's rules for each API.
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/session/api/data.js';
import { messagesToSend, toAnthropic, toOpenAIChat, toOpenAIResponses, UNANSWERED } from '../../../src/index.js';
import { chatRefusal, responsesRefusal } from '../../helpers/api-rules-openai.js';
import { anthropicRefusal } from '../../helpers/api-rules-anthropic.js';

const at = new Date('2026-11-28T12:00:00Z');
const user = (content: string): Message => ({ role: 'user', content, timestamp: at });
const calling = (...ids: string[]): Message => ({ role: 'assistant', content: '', timestamp: at, toolCalls: ids.map((id) => ({ id, name: 'clock', arguments: '{}' })) });
const result = (id: string, content = `${id} done`): Message => ({ role: 'tool', content, toolCallId: id, timestamp: at });
const said = (content: string): Message => ({ role: 'assistant', content, timestamp: at });

/** What each API says of the conversation as sent to it (undefined: accepted). */
function refusals(messages: readonly Message[]) {
  const sent = messagesToSend(messages, null, { provider: 'openai' });
  return [chatRefusal({ messages: toOpenAIChat(sent) }), responsesRefusal({ input: toOpenAIResponses(sent) }), anthropicRefusal({ ...toAnthropic(sent) })];
}

const shape = (messages: readonly Message[]) => messagesToSend(messages, null).map((m) => `${m.role}:${m.toolCalls?.map((c) => c.id).join('+') ?? m.toolCallId ?? m.content}`);

describe('messagesToSend and tool results', () => {
  it('leaves out a result whose call is not in the conversation', () => {
    const messages = [user('time?'), result('call_gone'), said('It is noon.')];
    expect(shape(messages)).toEqual(['user:time?', 'assistant:It is noon.']);
    expect(refusals(messages)).toEqual([undefined, undefined, undefined]);
  });

  it('leaves out a result whose call was superseded (/retry), keeping the answer that replaced it', () => {
    const messages = [user('time?'), { ...calling('call_1'), superseded: true }, result('call_1'), said('Noon.')];
    expect(shape(messages)).toEqual(['user:time?', 'assistant:Noon.']);
    expect(refusals(messages)).toEqual([undefined, undefined, undefined]);
  });

  it('drops a second result for a call already answered', () => {
    const messages = [user('time?'), calling('call_1'), result('call_1', '12:00'), result('call_1', '12:01'), said('Noon.')];
    expect(messagesToSend(messages, null).map((m) => m.content)).toEqual(['time?', '', '12:00', 'Noon.']);
    expect(refusals(messages)).toEqual([undefined, undefined, undefined]);
  });

  it('drops a late result, after the user spoke, for a call closed as never answered', () => {
    const messages = [user('time?'), calling('call_1'), user('never mind'), result('call_1', '12:00'), said('OK.')];
    const sent = messagesToSend(messages, null);
    expect(sent.map((m) => m.content)).toEqual(['time?', '', UNANSWERED, 'never mind', 'OK.']);
    expect(refusals(messages)).toEqual([undefined, undefined, undefined]);
  });

  it('keeps the results of parallel calls made each in a message of their own', () => {
    const messages = [user('time?'), calling('call_1'), calling('call_2'), result('call_1'), result('call_2'), said('Noon, 1 pm.')];
    expect(shape(messages)).toEqual(['user:time?', 'assistant:call_1', 'assistant:call_2', 'tool:call_1', 'tool:call_2', 'assistant:Noon, 1 pm.']);
    expect(responsesRefusal({ input: toOpenAIResponses(messagesToSend(messages, null)) })).toBeUndefined();
  });

  it('still closes a call none answers, after the results that came', () => {
    const messages = [user('time?'), calling('call_1', 'call_2'), result('call_2'), user('and?')];
    expect(shape(messages)).toEqual(['user:time?', 'assistant:call_1+call_2', 'tool:call_2', 'tool:call_1', 'user:and?']);
    expect(refusals(messages)).toEqual([undefined, undefined, undefined]);
  });
});
