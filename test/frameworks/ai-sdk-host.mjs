// A second server process of an AI SDK app, as far as its chat store goes: it opens the store
// (`chatkeep/ai-sdk`, through the package's exports) and starts a reply in chat argv[2], holding
// the chat while the reply streams. It prints `holding` then; a `finish` line on stdin finishes
// the reply (`a-host`, "From the other process.") and closes the store, printing `released`.
// argv: chat id, home, cwd, and optionally the store's URL (PostgreSQL).
import { createInterface } from 'node:readline';
import { openSessions } from 'chatkeep';
import { openChatStore } from 'chatkeep/ai-sdk';

const [chatId, home, cwd, url] = process.argv.slice(2);
const store = await openChatStore(await openSessions({ home, cwd, ...(url ? { store: url } : {}) }));
const reply = await store.streamReply(chatId);
await reply.push('From the other ');
console.log('holding');
for await (const line of createInterface({ input: process.stdin })) {
  if (line !== 'finish') continue;
  await reply.push('process.');
  await reply.finish({ id: 'a-host', role: 'assistant', parts: [{ type: 'text', text: 'From the other process.', state: 'done' }] });
  await store.close();
  console.log('released');
}
