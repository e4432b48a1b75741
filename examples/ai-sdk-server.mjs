// A chat server of the Vercel AI SDK (`node:http`, `streamText` with `@ai-sdk/openai`) whose
// chats chatkeep keeps (`chatkeep/ai-sdk`): the persistence guide's server with its store
// swapped. The question is saved before the model is asked; the reply is journaled as it
// streams (the browser gets what is journaled, no more) and saved whole at its end; `consumeStream()` lets a reply finish (and be saved)
// when the browser goes away. Killed mid-reply, the server leaves the question and the reply so
// far, marked unfinished (its text part `state: 'streaming'`).
//
//   POST /api/chats                       → {"id": "<new chat id>"}
//   GET  /api/chats/<id>                  → the chat's UIMessages
//   POST /api/chat {"id", "message"}      → the reply, as the AI SDK's UI message stream
//
// Environment: CHATKEEP_HOME (where chats are kept), CHATKEEP_STORE (a PostgreSQL server's URL to
// keep them there instead), OPENAI_BASE_URL and OPENAI_API_KEY (the model's server), MODEL
// (default gpt-4o-mini), PORT (default 3000; 0 picks one). Prints `listening <port>` once it
// accepts requests.
import { createServer } from 'node:http';
import { createOpenAI } from '@ai-sdk/openai';
import { consumeStream, convertToModelMessages, createIdGenerator, pipeUIMessageStreamToResponse, streamText } from 'ai';
import { openSessions } from 'chatkeep';
import { openChatStore } from 'chatkeep/ai-sdk';

const store = process.env.CHATKEEP_STORE;
const sessions = await openSessions({ home: process.env.CHATKEEP_HOME, cwd: process.cwd(), ...(store ? { store } : {}) });
const { createChat, loadChat, saveChat, streamReply } = await openChatStore(sessions);
const openai = createOpenAI({ baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY });
const messageId = createIdGenerator({ prefix: 'msg', size: 16 });

async function body(req) {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  return JSON.parse(raw);
}

function json(res, status, value) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

async function chat(req, res) {
  const { id, message } = await body(req);
  const messages = [...(await loadChat(id)), message];
  // The question is durable before the model sees it.
  await saveChat({ chatId: id, messages });
  const reply = await streamReply(id);
  const result = streamText({
    model: openai.chat(process.env.MODEL ?? 'gpt-4o-mini'),
    messages: await convertToModelMessages(messages),
  });
  let finished;
  const held = [];
  const stream = result
    .toUIMessageStream({ originalMessages: messages, generateMessageId: messageId, onFinish: (done) => void (finished = done) })
    .pipeThrough(new TransformStream({
      // The browser is sent only what push() says is stored (what a crash keeps, secrets redacted);
      // the text's end waits for the last word, which only finish() stores.
      async transform(chunk, out) {
        const sent = chunk.type === 'text-delta' ? { ...chunk, delta: await reply.push(chunk.delta) } : chunk;
        if (chunk.type === 'text-end' || held.length > 0) held.push(sent);
        else out.enqueue(sent);
      },
      async flush(out) {
        const rest = await reply.finish(finished.responseMessage);
        const end = held.findLastIndex((chunk) => chunk.type === 'text-end');
        if (rest !== '') held.splice(end, 0, { type: 'text-delta', id: held[end].id, delta: rest });
        for (const chunk of held) out.enqueue(chunk);
        await saveChat({ chatId: id, messages: finished.messages });
      },
    }));
  // One copy for the browser, one read to the end here (consumeStream): a browser that goes
  // away stops reading its copy, and onFinish still gets the whole reply and saves it.
  const [toBrowser, toStore] = stream.tee();
  consumeStream({ stream: toStore, onError: (err) => console.error(err) });
  pipeUIMessageStreamToResponse({ response: res, stream: toBrowser });
}

const server = createServer((req, res) => {
  const handle = async () => {
    if (req.method === 'POST' && req.url === '/api/chats') return json(res, 200, { id: await createChat() });
    if (req.method === 'GET' && req.url?.startsWith('/api/chats/')) return json(res, 200, await loadChat(decodeURIComponent(req.url.slice('/api/chats/'.length))));
    if (req.method === 'POST' && req.url === '/api/chat') return chat(req, res);
    json(res, 404, { error: `no route ${req.method} ${req.url}` });
  };
  handle().catch((err) => {
    console.error(err);
    if (!res.headersSent) json(res, 500, { error: err.message });
    else res.end();
  });
});
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => console.log(`listening ${server.address().port}`));
