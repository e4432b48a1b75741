#!/usr/bin/env node
// Copied from the team's peers kit (/work/shared/peers-kit/fake-server.mjs) for
// scripts/make-peer-fixtures.mjs, with one addition: TOOL CALLS. When the newest user text asks
// to "read the file /abs/path" and no tool result follows it yet, the reply is a call of the
// tool each vendor's client offers for that (Claude Code `Read`, Codex `exec_command`, Gemini
// `read_file`); once the client sends the tool's result back, the reply is text again.
// Fake model server for the peer comparison. Speaks, on 127.0.0.1 only:
//   Anthropic Messages API  POST /v1/messages (SSE or JSON), /v1/messages/count_tokens, GET /v1/models
//   OpenAI chat completions POST /v1/chat/completions (chunks + usage chunk + [DONE], or JSON)
//   OpenAI Responses API    POST /v1/responses (SSE, as Codex CLI expects)
//   Gemini                  POST /v1beta/models/M:streamGenerateContent?alt=sse, :generateContent, :countTokens
// Every request is logged as one JSON line (LOG_DIR/requests.jsonl): time, path, bytes, message count,
// the last user text (head), and whether MARKERS (comma list, env) occur in the raw body. With
// LOG_BODIES=1 each body is also written to LOG_DIR/bodies/<n>.json.
// Replies are words "q<n>w001 q<n>w002 …" (n = request number), REPLY_WORDS of them, one every
// WORD_DELAY_MS ms; the reply text is unique per request so a partial reply can be traced on disk.
// Reported token usage is tiny on purpose (so no client auto-compacts a 10 MB test session).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const PORT = Number(process.env.PORT ?? 18080);
const WORD_DELAY_MS = Number(process.env.WORD_DELAY_MS ?? 0);
const REPLY_WORDS = Number(process.env.REPLY_WORDS ?? 12);
const LOG_DIR = process.env.LOG_DIR ?? '/tmp/evalC/server-log';
const LOG_BODIES = process.env.LOG_BODIES === '1';
const MARKERS = (process.env.MARKERS ?? '').split(',').filter(Boolean);
fs.mkdirSync(path.join(LOG_DIR, 'bodies'), { recursive: true });
const logStream = fs.createWriteStream(path.join(LOG_DIR, 'requests.jsonl'), { flags: 'a' });
// REQ_BASE: where this server's request numbers start, so reply words of two servers never collide
let reqNo = Number(process.env.REQ_BASE ?? 0);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const words = (n) => Array.from({ length: REPLY_WORDS }, (_, i) => `q${n}w${String(i + 1).padStart(3, '0')}`);

function textOf(c) {
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((p) => (typeof p === 'string' ? p : p?.text ?? p?.content ?? '')).map(textOf).join(' ');
  if (c && typeof c === 'object') return textOf(c.text ?? c.content ?? '');
  return '';
}

function summarize(url, body) {
  let msgs = [];
  let kind = 'other';
  if (Array.isArray(body?.messages)) { msgs = body.messages; kind = 'messages'; }
  else if (Array.isArray(body?.input)) { msgs = body.input; kind = 'responses'; }
  else if (Array.isArray(body?.contents)) { msgs = body.contents; kind = 'gemini'; }
  const users = msgs.filter((m) => m?.role === 'user');
  const lastUser = users.length ? textOf(users[users.length - 1].content ?? users[users.length - 1].parts) : '';
  return { kind, nMessages: msgs.length, nUser: users.length, lastUser: lastUser.slice(-300) };
}

async function streamWords(res, n, writeWord, delay) {
  const ws = words(n);
  for (let i = 0; i < ws.length; i++) {
    if (res.destroyed) return false;
    if (delay && i > 0) await sleep(delay);
    writeWord((i ? ' ' : '') + ws[i], i);
  }
  return true;
}

/** The file the newest user text asks to read, unless a tool result already answers it. */
function wantedFile(text) {
  const m = /read the file (\/\S+)/.exec(text ?? '');
  return m ? m[1] : undefined;
}
function anthropicWants(body) {
  const last = body.messages?.[body.messages.length - 1];
  if (!last || last.role !== 'user') return undefined;
  const blocks = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content ?? [];
  if (blocks.some((b) => b.type === 'tool_result')) return undefined;
  return wantedFile(blocks.filter((b) => b.type === 'text').map((b) => b.text).join(' '));
}
function responsesWants(body) {
  const last = body.input?.[body.input.length - 1];
  if (!last || last.type === 'function_call_output' || last.role !== 'user') return undefined;
  return wantedFile(textOf(last.content));
}
function geminiWants(body) {
  const last = body.contents?.[body.contents.length - 1];
  if (!last || last.role !== 'user' || (last.parts ?? []).some((p) => p.functionResponse)) return undefined;
  return wantedFile((last.parts ?? []).map((p) => p.text ?? '').join(' '));
}

const sse = (res, event, data) => res.write((event ? `event: ${event}\n` : '') + `data: ${JSON.stringify(data)}\n\n`);

async function anthropic(res, body, n) {
  const model = body.model ?? 'claude-fake';
  const id = `msg_fake${n}`;
  const usageIn = { input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  if (!body.stream) {
    const text = words(n).join(' ');
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${n}` });
    res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model, content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage: { ...usageIn, output_tokens: REPLY_WORDS } }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_${n}` });
  sse(res, 'message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: usageIn } });
  const file = anthropicWants(body);
  if (file) {
    sse(res, 'content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: `toolu_fake${n}`, name: 'Read', input: {} } });
    sse(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify({ file_path: file }) } });
    sse(res, 'content_block_stop', { type: 'content_block_stop', index: 0 });
    sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 5 } });
    sse(res, 'message_stop', { type: 'message_stop' });
    res.end();
    return;
  }
  sse(res, 'content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
  sse(res, 'ping', { type: 'ping' });
  const ok = await streamWords(res, n, (w) => sse(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: w } }), WORD_DELAY_MS);
  if (!ok) return;
  sse(res, 'content_block_stop', { type: 'content_block_stop', index: 0 });
  sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: REPLY_WORDS } });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

async function openaiChat(res, body, n) {
  const model = body.model ?? 'gpt-fake';
  const id = `chatcmpl-fake${n}`;
  const created = Math.floor(Date.now() / 1000);
  const usage = { prompt_tokens: 10, completion_tokens: REPLY_WORDS, total_tokens: 10 + REPLY_WORDS };
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message: { role: 'assistant', content: words(n).join(' ') }, finish_reason: 'stop' }], usage }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta, finish = null) => sse(res, null, { id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] });
  chunk({ role: 'assistant', content: '' });
  const ok = await streamWords(res, n, (w) => chunk({ content: w }), WORD_DELAY_MS);
  if (!ok) return;
  chunk({}, 'stop');
  sse(res, null, { id, object: 'chat.completion.chunk', created, model, choices: [], usage });
  res.write('data: [DONE]\n\n');
  res.end();
}

async function openaiResponses(res, body, n) {
  const model = body.model ?? 'gpt-fake';
  const rid = `resp_fake${n}`;
  const mid = `msg_fake${n}`;
  const created_at = Math.floor(Date.now() / 1000);
  let seq = 0;
  const ev = (type, data) => sse(res, type, { type, sequence_number: seq++, ...data });
  const base = { id: rid, object: 'response', created_at, model, status: 'in_progress', output: [] };
  const full = words(n).join(' ');
  const item = { id: mid, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: full, annotations: [] }] };
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: REPLY_WORDS, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 10 + REPLY_WORDS };
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...base, status: 'completed', output: [item], usage }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  ev('response.created', { response: base });
  ev('response.in_progress', { response: base });
  const file = responsesWants(body);
  if (file) {
    const args = JSON.stringify({ cmd: `cat ${file}` });
    const call = { id: `fc_fake${n}`, type: 'function_call', status: 'completed', call_id: `call_fake${n}`, name: 'exec_command', arguments: args };
    ev('response.output_item.added', { output_index: 0, item: { ...call, status: 'in_progress', arguments: '' } });
    ev('response.function_call_arguments.delta', { item_id: call.id, output_index: 0, delta: args });
    ev('response.function_call_arguments.done', { item_id: call.id, output_index: 0, arguments: args });
    ev('response.output_item.done', { output_index: 0, item: call });
    ev('response.completed', { response: { ...base, status: 'completed', output: [call], usage } });
    res.end();
    return;
  }
  ev('response.output_item.added', { output_index: 0, item: { id: mid, type: 'message', status: 'in_progress', role: 'assistant', content: [] } });
  ev('response.content_part.added', { item_id: mid, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
  const ok = await streamWords(res, n, (w) => ev('response.output_text.delta', { item_id: mid, output_index: 0, content_index: 0, delta: w, logprobs: [] }), WORD_DELAY_MS);
  if (!ok) return;
  ev('response.output_text.done', { item_id: mid, output_index: 0, content_index: 0, text: full, logprobs: [] });
  ev('response.content_part.done', { item_id: mid, output_index: 0, content_index: 0, part: { type: 'output_text', text: full, annotations: [] } });
  ev('response.output_item.done', { output_index: 0, item });
  ev('response.completed', { response: { ...base, status: 'completed', output: [item], usage } });
  res.end();
}

function fromSchema(s) {
  const t = String(s?.type ?? 'OBJECT').toUpperCase();
  if (Array.isArray(s?.enum) && s.enum.length) return s.enum[0];
  if (t === 'OBJECT') {
    const o = {};
    for (const [k, v] of Object.entries(s.properties ?? {})) o[k] = fromSchema(v);
    return o;
  }
  if (t === 'ARRAY') return [];
  if (t === 'INTEGER' || t === 'NUMBER') return 10;
  if (t === 'BOOLEAN') return false;
  return 'ok';
}

async function gemini(res, url, body, n) {
  const m = /models\/([^:/]+):(\w+)/.exec(url.pathname);
  const model = m?.[1] ?? 'gemini-fake';
  const op = m?.[2] ?? '';
  const usage = { promptTokenCount: 10, candidatesTokenCount: REPLY_WORDS, totalTokenCount: 10 + REPLY_WORDS };
  if (op === 'countTokens') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ totalTokens: 10 }));
    return;
  }
  if (op === 'embedContent' || op === 'batchEmbedContents') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ embedding: { values: [0, 0, 0] }, embeddings: [{ values: [0, 0, 0] }] }));
    return;
  }
  const cand = (text, finish) => ({ candidates: [{ content: { parts: [{ text }], role: 'model' }, index: 0, ...(finish ? { finishReason: 'STOP' } : {}) }], usageMetadata: usage, modelVersion: model, responseId: `gem${n}` });
  if (op !== 'streamGenerateContent') {
    // generateJson calls (routing classifier, next-speaker check…) get a value built from their schema
    const gc = body.generationConfig ?? {};
    const schema = gc.responseJsonSchema ?? gc.responseSchema;
    const text = gc.responseMimeType === 'application/json' ? JSON.stringify(fromSchema(schema ?? { type: 'OBJECT' })) : words(n).join(' ');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(cand(text, true)));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const file = geminiWants(body);
  if (file) {
    sse(res, null, { candidates: [{ content: { parts: [{ functionCall: { id: `call_fake${n}`, name: 'read_file', args: { file_path: file } } }], role: 'model' }, index: 0, finishReason: 'STOP' }], usageMetadata: usage, modelVersion: model, responseId: `gem${n}` });
    res.end();
    return;
  }
  const ws = words(n);
  for (let i = 0; i < ws.length; i++) {
    if (res.destroyed) return;
    if (WORD_DELAY_MS && i > 0) await sleep(WORD_DELAY_MS);
    sse(res, null, cand((i ? ' ' : '') + ws[i], i === ws.length - 1));
  }
  res.end();
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const t0 = Date.now();
    const n = ++reqNo;
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url, `http://127.0.0.1:${PORT}`);
    let body = null;
    try { body = raw ? JSON.parse(raw) : null; } catch { body = null; }
    const entry = { n, t: t0, method: req.method, path: url.pathname, query: url.search, bytes: raw.length, stream: body?.stream ?? null, model: body?.model ?? null, ua: req.headers['user-agent'] ?? null, ...summarize(url, body) };
    for (const mk of MARKERS) entry[`has:${mk}`] = raw.includes(mk);
    // arrivals: written at once (synchronously) so a test can react while the reply streams
    fs.appendFileSync(path.join(LOG_DIR, 'arrivals.jsonl'), JSON.stringify({ n, t: t0, path: url.pathname, lastUser: entry.lastUser.slice(-120) }) + '\n');
    res.on('close', () => {
      entry.msServer = Date.now() - t0;
      entry.aborted = !res.writableFinished;
      logStream.write(JSON.stringify(entry) + '\n');
    });
    if (LOG_BODIES && raw) fs.writeFile(path.join(LOG_DIR, 'bodies', `${n}.json`), raw, () => {});
    try {
      const p = url.pathname;
      if (req.method === 'POST' && /\/v1\/messages\/count_tokens$/.test(p)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ input_tokens: 10 }));
      }
      if (req.method === 'POST' && /\/v1\/messages$/.test(p)) return await anthropic(res, body ?? {}, n);
      if (req.method === 'POST' && /\/chat\/completions$/.test(p)) return await openaiChat(res, body ?? {}, n);
      if (req.method === 'POST' && /\/responses$/.test(p)) return await openaiResponses(res, body ?? {}, n);
      if (/\/v1(beta|alpha)?\/models\/[^/]+:/.test(p)) return await gemini(res, url, body ?? {}, n);
      if (req.method === 'GET' && /\/models$/.test(p)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ object: 'list', data: [{ id: 'claude-fake', type: 'model', object: 'model', display_name: 'fake', created_at: '2026-01-01T00:00:00Z', owned_by: 'fake' }], models: [], has_more: false, first_id: 'claude-fake', last_id: 'claude-fake' }));
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `fake server: no ${req.method} ${p}` } }));
    } catch (e) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(e));
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(PORT, '127.0.0.1', () => {
  fs.writeFileSync(path.join(LOG_DIR, 'server.pid'), String(process.pid));
  process.stderr.write(`fake server on 127.0.0.1:${PORT} delay=${WORD_DELAY_MS}ms words=${REPLY_WORDS} log=${LOG_DIR}\n`);
});
for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => { server.close(); logStream.end(() => process.exit(0)); setTimeout(() => process.exit(0), 300).unref(); });
