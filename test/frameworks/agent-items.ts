/**
 * One of each kind of `AgentInputItem` a run can hold, with the optional fields and provider
 * data the SDK and the Responses API put on them: what a lossless session gives back exactly.
 */
import type { AgentInputItem } from '@openai/agents';

export const AGENT_ITEMS: AgentInputItem[] = [
  { type: 'message', role: 'user', content: 'What is the weather in Oslo?' },
  { role: 'system', content: 'Answer in one sentence.' },
  {
    role: 'user',
    content: [
      { type: 'input_text', text: 'And what does this picture show?' },
      { type: 'input_image', image: 'https://example.com/fjord.png', detail: 'low' },
      { type: 'input_file', file: { id: 'file_7' }, filename: 'notes.pdf', providerData: { purpose: 'user_data' } },
    ],
  },
  {
    type: 'reasoning',
    id: 'rs_1',
    content: [{ type: 'input_text', text: 'The user wants the weather; call the tool.' }],
    providerData: { encrypted_content: 'gAAAAABpZ2VuY3J5cHRlZA==', summary_index: 0 },
  },
  { type: 'function_call', id: 'fc_1', callId: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}', status: 'completed' },
  { type: 'function_call', id: 'fc_2', callId: 'call_2', name: 'snapshot', arguments: '{}', status: 'completed', namespace: 'camera', providerData: { parallel: true } },
  { type: 'function_call_result', callId: 'call_1', name: 'get_weather', status: 'completed', output: 'Sunny, 21 °C' },
  {
    type: 'function_call_result',
    callId: 'call_2',
    name: 'snapshot',
    status: 'completed',
    output: { type: 'image', image: { data: new Uint8Array([137, 80, 78, 71, 0, 255]), mediaType: 'image/png' }, detail: 'high' },
  },
  {
    type: 'message',
    id: 'msg_1',
    role: 'assistant',
    status: 'completed',
    phase: 'final_answer',
    content: [
      { type: 'output_text', text: 'Sunny and 21 °C in Oslo.', providerData: { annotations: [], logprobs: [] } },
      { type: 'refusal', refusal: 'I cannot describe people in the picture.' },
    ],
  },
  { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Anything else?' }] },
  { type: 'hosted_tool_call', id: 'ws_1', name: 'web_search_call', status: 'completed', providerData: { action: { type: 'search', query: 'Oslo weather' } } },
  { type: 'shell_call', id: 'sh_1', callId: 'call_3', status: 'completed', action: { commands: ['date'], timeoutMs: 1000 } },
  { type: 'shell_call_output', id: 'sho_1', callId: 'call_3', output: [{ stdout: 'Wed Nov 25', stderr: '', outcome: { type: 'exit', exitCode: 0 } }] },
  { type: 'compaction', id: 'cmp_1', encrypted_content: 'ZW5jcnlwdGVkIGhpc3Rvcnk=', created_by: 'server' },
  { type: 'unknown', id: 'x_1', providerData: { type: 'future_item', payload: { nested: [1, 'two', null, { three: 3 }] } } },
] as AgentInputItem[];

/** How many values (leaves) a value holds at any depth: the fields a deep comparison checks. */
export function leaves(value: unknown): number {
  if (value instanceof Uint8Array) return 1;
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + leaves(v), 0);
  if (value !== null && typeof value === 'object') return Object.values(value).reduce((n: number, v) => n + leaves(v), 0);
  return 1;
}
