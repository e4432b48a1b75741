/**
 * Generated conversations for the benchmarks: mixed prose, unicode, code blocks and tool
 * calls, deterministic (a seeded generator) so every run measures the same bytes.
 */
import type { Message } from '../src/session/api/data.js';
import { createRandom } from '../torture/random.js';

const WORDS = (
  'the session journal snapshot restores every message after a crash while the lock keeps ' +
  'two terminals apart and autosave runs quietly in the background über naïve café 数据 保存 ' +
  'сессия журнал 🚀 ✅ λ → ≤ refactor function return const await promise'
).split(' ');

const CODE = [
  '```ts\nexport async function load(id: string): Promise<Session> {\n  const raw = await readFile(path(id), "utf8");\n  return decode(raw);\n}\n```',
  '```python\ndef fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n```',
  '```sh\nchatkeep --session-id session-20261122-143022 --autosave 30s\n```',
];

function prose(rand: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(rand() * WORDS.length)]);
  return out.join(' ');
}

/**
 * `count` messages of about `avgBytes` each (user, assistant with code or a tool call, tool
 * result), timestamps one second apart from `start`.
 */
export function makeMessages(count: number, avgBytes: number, seed = 1, start = Date.UTC(2026, 10, 1)): Message[] {
  const rand = createRandom(seed).next;
  const messages: Message[] = [];
  for (let i = 0; i < count; i++) {
    const timestamp = new Date(start + i * 1000);
    const words = Math.max(1, Math.round((avgBytes / 7) * (0.5 + rand())));
    const kind = i % 4;
    if (kind === 0) {
      messages.push({ role: 'user', content: prose(rand, words), timestamp });
    } else if (kind === 1) {
      messages.push({
        role: 'assistant',
        content: `${prose(rand, Math.max(1, words - 40))}\n\n${CODE[i % CODE.length]}`,
        timestamp,
        usage: { inputTokens: 100 + i, outputTokens: words },
      });
    } else if (kind === 2) {
      messages.push({
        role: 'assistant',
        content: prose(rand, Math.round(words / 4)),
        timestamp,
        toolCalls: [
          {
            id: `call_${i}`,
            name: 'read_file',
            arguments: JSON.stringify({ path: `src/file-${i}.ts`, note: prose(rand, 8) }),
          },
        ],
      });
    } else {
      messages.push({ role: 'tool', content: prose(rand, words), timestamp, toolCallId: `call_${i - 1}` });
    }
  }
  return messages;
}

/** Average message size at which 5,000 messages make the 10 MB session of docs/design.md §22 (measured). */
export const TEN_MB_AVG_BYTES = 2_530;
