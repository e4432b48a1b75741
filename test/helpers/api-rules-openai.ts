/**
 * What OpenAI's APIs refuse in a request's conversation, as the real ones do (each message
 * below is the API's own wording): for the validating fake server. Returns the refusal, or
 * undefined when the request would be accepted.
 */
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function textContent(content: unknown, where: string, types: readonly string[]): string | undefined {
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content) || content.length === 0) return `Invalid value for '${where}.content': expected a string or a non-empty array.`;
  for (const [i, p] of content.entries()) {
    if (!isObj(p) || !types.includes(String(p.type))) return `Invalid value: '${isObj(p) ? String(p.type) : typeof p}'. Supported values are: ${types.map((t) => `'${t}'`).join(', ')}. (${where}.content[${i}])`;
  }
  return undefined;
}

/** Chat Completions `messages`. */
export function chatRefusal(body: Obj): string | undefined {
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return "Invalid 'messages': empty array. Expected an array with minimum length 1.";
  let waiting: string[] = [];
  for (const [i, m] of messages.entries()) {
    const where = `messages[${i}]`;
    if (!isObj(m)) return `Invalid type for '${where}': expected an object.`;
    if (waiting.length > 0 && m.role !== 'tool') {
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${waiting.join(', ')}`;
    }
    switch (m.role) {
      case 'system':
      case 'developer': {
        const bad = textContent(m.content, where, ['text']);
        if (bad) return bad;
        break;
      }
      case 'user': {
        const bad = textContent(m.content, where, ['text', 'image_url', 'input_audio', 'file']);
        if (bad) return bad;
        break;
      }
      case 'assistant': {
        const calls = Array.isArray(m.tool_calls) ? m.tool_calls.filter(isObj) : [];
        if ((m.content === null || m.content === undefined) && calls.length === 0 && m.function_call == null) {
          return `Invalid value for '${where}.content': expected a string, got null.`;
        }
        if (m.content != null) {
          const bad = textContent(m.content, where, ['text', 'refusal']);
          if (bad) return bad;
        }
        for (const c of calls) {
          if (typeof c.id !== 'string' || !isObj(c.function) || typeof c.function.name !== 'string' || typeof c.function.arguments !== 'string') {
            return `Missing required parameter: '${where}.tool_calls[0].function'.`;
          }
        }
        waiting = calls.map((c) => String(c.id));
        break;
      }
      case 'tool': {
        if (!waiting.includes(String(m.tool_call_id))) {
          return "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";
        }
        waiting = waiting.filter((id) => id !== m.tool_call_id);
        const bad = textContent(m.content, where, ['text']);
        if (bad) return bad;
        break;
      }
      default:
        return `Invalid value: '${String(m.role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'. (${where}.role)`;
    }
  }
  if (waiting.length > 0) {
    return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${waiting.join(', ')}`;
  }
  return undefined;
}

const INPUT_PARTS = ['input_text', 'input_image', 'input_file'];
const OUTPUT_PARTS = ['output_text', 'refusal'];

/** Responses API `input`. */
export function responsesRefusal(body: Obj): string | undefined {
  const input = body.input;
  if (typeof input === 'string') return undefined;
  if (!Array.isArray(input)) return "Invalid type for 'input': expected one of a string or array of input items.";
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const [i, item] of input.entries()) {
    const where = `input[${i}]`;
    if (!isObj(item)) return `Invalid type for '${where}': expected an object.`;
    const type = item.type ?? 'message';
    if (type === 'message') {
      const role = String(item.role);
      if (!['user', 'assistant', 'system', 'developer'].includes(role)) return `Invalid value: '${role}'. Supported values are: 'assistant', 'system', 'developer', and 'user'. (${where}.role)`;
      const bad = textContent(item.content, where, role === 'assistant' ? OUTPUT_PARTS : INPUT_PARTS);
      if (bad) return bad;
    } else if (type === 'function_call') {
      if (typeof item.call_id !== 'string' || typeof item.name !== 'string' || typeof item.arguments !== 'string') return `Missing required parameter: '${where}.call_id'.`;
      calls.add(item.call_id);
    } else if (type === 'function_call_output') {
      const id = String(item.call_id);
      if (!calls.has(id)) return `No tool call found for function call output with call_id ${id}.`;
      if (answered.has(id)) return `Duplicate function call output for call_id ${id}.`;
      answered.add(id);
      if (typeof item.output !== 'string' && !Array.isArray(item.output)) return `Invalid type for '${where}.output': expected a string or an array.`;
    } else if (type === 'reasoning') {
      if (typeof item.id !== 'string' || !Array.isArray(item.summary)) return `Missing required parameter: '${where}.summary'.`;
      const next = input[i + 1] as Obj | undefined;
      if (!next || next.type === 'reasoning') return `Item '${item.id}' of type 'reasoning' was provided without its required following item.`;
    } else {
      return `Invalid value: '${String(type)}'. (${where}.type)`;
    }
  }
  for (const id of calls) if (!answered.has(id)) return `No tool output found for function call ${id}.`;
  return undefined;
}
