import type { Message, NewMessage, ToolCall } from './data.js';

/**
 * A message as stored: validated, timestamped, with secrets redacted from its content and its
 * tool-call arguments, and no undefined fields (so the snapshot encoder's fast path applies).
 */
export function storedMessage(input: NewMessage, redact: (text: string) => string, now: () => Date): Message {
  if (input.role !== 'user' && input.role !== 'assistant' && input.role !== 'tool') {
    throw new TypeError(`message role must be user, assistant or tool, not ${String(input.role)}`);
  }
  if (typeof input.content !== 'string') throw new TypeError('message content must be a string');
  const message: Message = { role: input.role, content: redact(input.content), timestamp: input.timestamp ?? now() };
  if (input.toolCalls) {
    message.toolCalls = input.toolCalls.map((c: ToolCall) => ({ id: c.id, name: c.name, arguments: redact(String(c.arguments)) }));
  }
  if (input.toolCallId !== undefined) message.toolCallId = input.toolCallId;
  if (input.usage) message.usage = { inputTokens: input.usage.inputTokens, outputTokens: input.usage.outputTokens };
  if (input.interrupted) message.interrupted = true;
  if (typeof input.model === 'string' && input.model !== '') message.model = input.model;
  return message;
}
