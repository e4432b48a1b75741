/**
 * What Anthropic's Messages API refuses in a request's `system` and `messages`, as the real one
 * does (its own wording): for the validating fake server. Strict, like the API: a key a block
 * does not have is "Extra inputs are not permitted".
 */
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Each block type's keys: those it must have, then those it may have. */
const BLOCKS: Record<string, [string[], string[]]> = {
  text: [['text'], ['citations', 'cache_control']],
  image: [['source'], ['cache_control']],
  document: [['source'], ['cache_control', 'citations', 'context', 'title']],
  tool_use: [['id', 'name', 'input'], ['cache_control', 'caller', 'toolset_name']],
  tool_result: [['tool_use_id'], ['content', 'is_error', 'cache_control']],
  thinking: [['thinking', 'signature'], []],
  redacted_thinking: [['data'], []],
};

function blockRefusal(block: unknown, where: string): string | undefined {
  if (!isObj(block)) return `${where}: Input should be an object`;
  const shape = BLOCKS[String(block.type)];
  if (!shape) return `${where}.type: Input tag '${String(block.type)}' found using 'type' does not match any of the expected tags`;
  const [required, optional] = shape;
  for (const key of required) if (block[key] === undefined) return `${where}.${String(block.type)}.${key}: Field required`;
  for (const key of Object.keys(block)) {
    if (key !== 'type' && !required.includes(key) && !optional.includes(key)) return `${where}.${String(block.type)}.${key}: Extra inputs are not permitted`;
  }
  if (block.type === 'text' && block.text === '') return `${where}: text content blocks must be non-empty`;
  return undefined;
}

/** Anthropic Messages `system` and `messages`. */
export function anthropicRefusal(body: Obj): string | undefined {
  if (body.system !== undefined && typeof body.system !== 'string') {
    if (!Array.isArray(body.system)) return 'system: Input should be a valid string or list';
    for (const [i, b] of body.system.entries()) {
      if (!isObj(b) || b.type !== 'text') return `system.${i}: Input should be a text block`;
      const bad = blockRefusal(b, `system.${i}`);
      if (bad) return bad;
    }
  }
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return 'messages: at least one message is required';
  let toolUses: string[] = [];
  for (const [i, m] of messages.entries()) {
    const where = `messages.${i}`;
    if (!isObj(m)) return `${where}: Input should be an object`;
    for (const key of Object.keys(m)) if (key !== 'role' && key !== 'content') return `${where}.${key}: Extra inputs are not permitted`;
    if (m.role !== 'user' && m.role !== 'assistant') return `${where}.role: Input should be 'user' or 'assistant'`;
    if (i === 0 && m.role !== 'user') return 'messages: first message must use the "user" role';
    if (typeof m.content === 'string') {
      if (m.content === '' && !(m.role === 'assistant' && i === messages.length - 1)) return `${where}: all messages must have non-empty content except for the optional final assistant message`;
    } else if (!Array.isArray(m.content) || m.content.length === 0) {
      return `${where}: all messages must have non-empty content except for the optional final assistant message`;
    }
    const blocks = typeof m.content === 'string' ? [] : (m.content as unknown[]);
    for (const [j, b] of blocks.entries()) {
      const bad = blockRefusal(b, `${where}.content.${j}`);
      if (bad) return bad;
    }
    const typed = blocks.filter(isObj);
    const results = typed.filter((b) => b.type === 'tool_result').map((b) => String(b.tool_use_id));
    if (m.role === 'assistant' && typed.some((b) => b.type === 'tool_result')) return `${where}.content: tool_result blocks are only allowed in user messages`;
    if (m.role === 'user' && typed.some((b) => b.type === 'tool_use' || b.type === 'thinking' || b.type === 'redacted_thinking')) return `${where}.content: tool_use and thinking blocks are only allowed in assistant messages`;
    const unexpected = results.filter((id) => !toolUses.includes(id));
    if (unexpected.length > 0) {
      return `${where}.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
    const missing = toolUses.filter((id) => !results.includes(id));
    if (missing.length > 0) {
      return `${where}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
    if (new Set(results).size !== results.length) return `${where}.content: each tool_result block must have a unique tool_use_id`;
    toolUses = m.role === 'assistant' ? typed.filter((b) => b.type === 'tool_use').map((b) => String(b.id)) : [];
  }
  if (toolUses.length > 0) {
    return `\`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${toolUses.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
  }
  return undefined;
}
