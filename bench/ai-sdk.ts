/**
 * `chatkeep/ai-sdk`'s `saveChat` of one new message into a 1,000-message chat, beside what the AI
 * SDK's persistence guide does: rewrite the chat's whole JSON file (no temporary file, no fsync).
 * chatkeep journals the one new message and fdatasyncs it, which the guide never pays: a second
 * row sets it beside the same rewrite made durable (fdatasync'ed), the honest comparison.
 */
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UIMessage } from 'ai';
import { openSessions } from '../src/index.js';
import { openChatStore } from '../src/frameworks/ai-sdk/index.js';
import type { BenchRow, MeasureOptions } from './harness.js';
import { measurePair, row } from './harness.js';

const CHAT_LENGTH = 1_000;

function message(n: number): UIMessage {
  const text = `Message ${n}: ${'the weather in Oslo is sunny, the wind from the west. '.repeat(3)}`;
  return { id: `m-${n}`, role: n % 2 === 0 ? 'user' : 'assistant', parts: [{ type: 'text', text }] };
}

export async function benchAiSdk(options: MeasureOptions): Promise<BenchRow[]> {
  const home = await mkdtemp(join(tmpdir(), 'chatkeep-bench-ai-sdk-'));
  try {
    const sessions = await openSessions({ home, cwd: home });
    const store = await openChatStore(sessions);
    const chatId = await store.createChat();
    const messages = Array.from({ length: CHAT_LENGTH }, (_, n) => message(n));
    await store.saveChat({ chatId, messages });
    const guideFile = join(home, `${chatId}.json`);
    const guided = messages.slice();
    await writeFile(guideFile, JSON.stringify(guided, null, 2));
    let next = CHAT_LENGTH;
    const save = async (): Promise<void> => {
      messages.push(message(next++));
      await store.saveChat({ chatId, messages });
    };
    const guide = await measurePair(
      save,
      async () => {
        guided.push(message(guided.length));
        await writeFile(guideFile, JSON.stringify(guided, null, 2));
      },
      options,
    );
    const durable = await measurePair(
      save,
      async () => {
        guided.push(message(guided.length));
        const file = await open(guideFile, 'w');
        try {
          await file.writeFile(JSON.stringify(guided, null, 2));
          await file.datasync();
        } finally {
          await file.close();
        }
      },
      options,
    );
    await store.close();
    await sessions.close();
    return [
      row('ai-sdk saveChat: one new message into a 1,000-message chat', CHAT_LENGTH, guide.ms, guide.floorMs, 2, {
        note: "floor: the persistence guide's rewrite of the chat's JSON file, no fsync (chatkeep's save fdatasyncs)",
      }),
      row('ai-sdk saveChat, beside the guide’s rewrite fdatasync’ed', CHAT_LENGTH, durable.ms, durable.floorMs, 2, {
        note: "floor: the guide's rewrite of the chat's JSON file, then fdatasync: both durable",
      }),
    ];
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
