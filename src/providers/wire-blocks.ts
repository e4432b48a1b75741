/**
 * Content parts as each SDK's request blocks (types only: no SDK is loaded here). A part a
 * provider has no block for travels as its text, or is left out when it has none.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { imageUrl, type ContentPart } from '../session/api/message-parts.js';
import type { Turn } from './message-text.js';


/** A turn as an Anthropic message. Reasoning goes back as it came: thinking with its signature, or redacted thinking's data. */
export function anthropicMessage(turn: Turn): Anthropic.MessageParam {
  if (typeof turn.content === 'string') return { role: turn.role, content: turn.content };
  const blocks = turn.content.flatMap((p): Anthropic.ContentBlockParam[] => {
    switch (p.type) {
      case 'text':
      case 'refusal':
        return p.text === '' ? [] : [{ type: 'text', text: p.text }];
      case 'image':
        if (p.data !== undefined) return [{ type: 'image', source: { type: 'base64', media_type: p.mediaType as Anthropic.Base64ImageSource['media_type'], data: p.data } }];
        return [{ type: 'image', source: { type: 'url', url: p.url! } }];
      case 'reasoning':
        // Thinking goes back only signed (the API checks it), and only in the assistant's turns.
        if (turn.role !== 'assistant') return [];
        if (p.signature !== undefined) return [{ type: 'thinking', thinking: p.text, signature: p.signature }];
        return p.data !== undefined ? [{ type: 'redacted_thinking', data: p.data }] : [];
      case 'native':
        return [p.item as unknown as Anthropic.ContentBlockParam];
    }
  });
  return { role: turn.role, content: blocks };
}

/** A turn as a Chat Completions message: images in the user's turns, a refusal as the assistant's `refusal`; reasoning has no place there. */
export function openaiMessage(turn: Turn): OpenAI.ChatCompletionMessageParam {
  if (typeof turn.content === 'string') return { role: turn.role, content: turn.content };
  const parts: ContentPart[] = turn.content;
  if (turn.role === 'assistant') {
    const text = parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
    const refusal = parts.flatMap((p) => (p.type === 'refusal' ? [p.text] : [])).join('\n');
    return { role: 'assistant', content: text, ...(refusal ? { refusal } : {}) };
  }
  const content = parts.flatMap((p): OpenAI.ChatCompletionContentPart[] => {
    switch (p.type) {
      case 'text':
      case 'refusal':
        return p.text === '' ? [] : [{ type: 'text', text: p.text }];
      case 'image':
        return [{ type: 'image_url', image_url: { url: imageUrl(p), ...(p.detail ? { detail: p.detail as 'auto' | 'low' | 'high' } : {}) } }];
      case 'reasoning':
        return [];
      case 'native':
        return [p.item as unknown as OpenAI.ChatCompletionContentPart];
    }
  });
  return { role: 'user', content };
}
