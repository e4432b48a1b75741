/**
 * One of each LangChain.js message class with the fields models and tools fill in: content
 * blocks (text, images, reasoning with its signature), tool calls valid and invalid, tool
 * results with artifacts and statuses, usage, `additional_kwargs` and `response_metadata`.
 */
import { withoutUndefined } from '../../src/convert/lossless.js';
import { AIMessage, ChatMessage, FunctionMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';

export const LANGCHAIN_MESSAGES: BaseMessage[] = [
  new SystemMessage({ content: 'You answer about the weather.', id: 'sys-1' }),
  new HumanMessage('What is the weather in Oslo?'),
  new HumanMessage({
    content: [
      { type: 'text', text: 'And in this picture?' },
      { type: 'image_url', image_url: { url: 'https://example.com/fjord.png', detail: 'low' } },
      { type: 'image', url: 'https://example.com/sky.png', mimeType: 'image/png' },
    ],
    name: 'ann',
    additional_kwargs: { locale: 'nb-NO' },
  }),
  new AIMessage({
    content: [
      { type: 'reasoning', reasoning: 'Two cities; call the tool twice.', id: 'rs_1' },
      { type: 'thinking', thinking: 'Check the units.', signature: 'EqQBCkYIARgCIkD' },
      { type: 'text', text: 'Let me look that up.' },
    ],
    id: 'msg_1',
    tool_calls: [
      { id: 'call_1', name: 'get_weather', args: { city: 'Oslo' }, type: 'tool_call' },
      { id: 'call_2', name: 'get_weather', args: { city: 'Bergen', units: ['C', 'F'] }, type: 'tool_call' },
    ],
    invalid_tool_calls: [{ id: 'call_3', name: 'get_weather', args: '{"city": Tromsø', error: 'not JSON', type: 'invalid_tool_call' }],
    usage_metadata: { input_tokens: 42, output_tokens: 17, total_tokens: 59, input_token_details: { cache_read: 8 }, output_token_details: { reasoning: 5 } },
    additional_kwargs: {
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
      reasoning: { id: 'rs_1', type: 'reasoning', summary: [] },
    },
    response_metadata: { model_name: 'gpt-fake-1', finish_reason: 'tool_calls', system_fingerprint: 'fp_1', logprobs: null },
  }),
  new ToolMessage({ content: 'Sunny, 21 °C', tool_call_id: 'call_1', name: 'get_weather', id: 'tool-1' }),
  new ToolMessage({
    content: [{ type: 'text', text: 'Bergen: rain' }],
    tool_call_id: 'call_2',
    name: 'get_weather',
    status: 'error',
    artifact: { raw: { mm: 12.5, hours: [1, 2, 3] } },
    metadata: { source: 'met.no' },
  }),
  new AIMessage({ content: 'Sunny in Oslo, rain in Bergen.', response_metadata: { model_name: 'gpt-fake-1' }, usage_metadata: { input_tokens: 80, output_tokens: 9, total_tokens: 89 } }),
  new AIMessage('Anything else?'),
  new ChatMessage({ content: 'Looks right.', role: 'critic' }),
  new FunctionMessage({ content: '{"ok":true}', name: 'legacy_function' }),
];

/**
 * What a comparison checks of a message: its class and every field, and its stored form; a key
 * whose value is `undefined` counts as absent (JSON, like every store, has no such value).
 */
export function described(message: BaseMessage): { class: string; type: string; dict: unknown; fields: Record<string, unknown> } {
  const m = message as unknown as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const key of ['content', 'additional_kwargs', 'response_metadata', 'id', 'name', 'tool_calls', 'invalid_tool_calls', 'usage_metadata', 'tool_call_id', 'artifact', 'status', 'role', 'metadata']) {
    if (m[key] !== undefined) fields[key] = m[key];
  }
  return { class: message.constructor.name, type: message.getType(), dict: withoutUndefined(message.toDict()), fields: withoutUndefined(fields) as Record<string, unknown> };
}
