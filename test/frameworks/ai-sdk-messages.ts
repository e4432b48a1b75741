/**
 * A chat of the AI SDK holding every kind of `UIMessage` part: text with its state and provider
 * metadata, reasoning, static tools (`tool-NAME`) and dynamic tools in every state, files,
 * sources, step starts, data parts, and message metadata.
 */
import type { UIMessage } from 'ai';

const meta = { openai: { itemId: 'rs_1', reasoningEncryptedContent: 'gAAAAB…' } };
const asked = { state: 'input-available', input: { city: 'Oslo' } } as const;

export const UI_CHAT: UIMessage[] = [
  { id: 'sys-1', role: 'system', parts: [{ type: 'text', text: 'You answer about the weather.' }] },
  {
    id: 'u-1',
    role: 'user',
    metadata: { createdAt: 1_790_000_000_000, client: 'web' },
    parts: [
      { type: 'text', text: 'What is the weather in Oslo and Bergen?' },
      { type: 'file', mediaType: 'image/png', filename: 'map.png', url: 'data:image/png;base64,iVBORw0KGgo=' },
    ],
  },
  {
    id: 'a-1',
    role: 'assistant',
    metadata: { model: 'gpt-fake', totalTokens: 42 },
    parts: [
      { type: 'step-start' },
      { type: 'reasoning', text: 'Two cities: call the tool twice.', state: 'done', providerMetadata: meta },
      { type: 'tool-get_weather', toolCallId: 'call_1', state: 'input-streaming', input: { city: 'Os' } },
      { type: 'tool-get_weather', toolCallId: 'call_2', ...asked, callProviderMetadata: { openai: { itemId: 'fc_2' } } },
      { type: 'tool-get_weather', toolCallId: 'call_3', state: 'output-available', input: { city: 'Bergen' }, output: { sky: 'rain', celsius: 12 } },
      { type: 'tool-get_weather', toolCallId: 'call_4', state: 'output-error', input: { city: 'nowhere' }, errorText: 'No such city' },
      { type: 'tool-get_weather', toolCallId: 'call_5', state: 'approval-requested', input: { city: 'Tromsø' }, approval: { id: 'ap_1' } },
      { type: 'tool-get_weather', toolCallId: 'call_6', state: 'approval-responded', input: { city: 'Tromsø' }, approval: { id: 'ap_2', approved: true, reason: 'ok' } },
      { type: 'tool-get_weather', toolCallId: 'call_7', state: 'output-denied', input: { city: 'Svalbard' }, approval: { id: 'ap_3', approved: false } },
      { type: 'dynamic-tool', toolName: 'lookup', toolCallId: 'call_8', state: 'output-available', input: { q: 'fjords' }, output: 'Many.', title: 'Look up' },
      { type: 'dynamic-tool', toolName: 'lookup', toolCallId: 'call_9', state: 'input-available', input: { q: 'glaciers' } },
      { type: 'step-start' },
      { type: 'source-url', sourceId: 'src-1', url: 'https://met.no/oslo', title: 'MET Norway' },
      { type: 'source-document', sourceId: 'src-2', mediaType: 'application/pdf', title: 'Forecast', filename: 'forecast.pdf' },
      { type: 'data-forecast', id: 'fc-1', data: { days: [{ day: 'Mon', sky: 'sun' }] } },
      { type: 'text', text: 'Oslo is sunny; Bergen has rain.', state: 'done', providerMetadata: { openai: { itemId: 'msg_1' } } },
    ],
  },
  { id: 'u-2', role: 'user', parts: [{ type: 'text', text: 'And tomorrow?' }] },
];
