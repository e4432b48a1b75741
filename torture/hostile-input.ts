/**
 * Hostile input through stdin and the library: control characters, invalid UTF-8, a 10 MB
 * line, and `__proto__` / `constructor` keys in message content and tool-call arguments.
 */
import { createHash } from 'node:crypto';
import { openSessions } from '../src/index.js';
import type { Message, NewMessage } from '../src/index.js';
import type { Tally } from './part.js';
import { freshDir, runPiped } from './proc.js';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Control characters and bytes that are not UTF-8, one message per line, through a pipe. */
export async function controlAndUtf8(root: string, tally: Tally): Promise<void> {
  const home = freshDir(root, 'ctl-home-');
  const cwd = freshDir(root, 'ctl-project-');
  const lines: Buffer[] = [
    Buffer.from('ctl \x1b[2J\x1b[31mred\x07bell\x08\x7f\x01\x02end'),
    Buffer.concat([Buffer.from('bad '), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0x20, 0xed, 0xa0, 0x80, 0x20, 0xf0, 0x9f]), Buffer.from(' ok')]),
    Buffer.from('nul \x00 inside \x00 twice'),
    Buffer.from('\x1b]0;title\x07osc and \x1b[6n query'),
    Buffer.from('rtl \u202e dlrow \u202c and zero width \u200b\u200d\ufeff'),
  ];
  const input = Buffer.concat([...lines.flatMap((line) => [line, Buffer.from('\n')]), Buffer.from('/quit\n')]);
  const result = await runPiped(['--autosave', 'off'], input, { home, cwd });
  tally.add('controlLinesSent', lines.length);
  if (result.code !== 0) tally.fail('crashes', `control characters: exit ${result.code}: ${result.stderr.slice(-300)}`);
  const id = /· session (\S+) ·/.exec(result.stderr)?.[1];
  if (!id) return;
  const manager = await openSessions({ home, cwd });
  const stored = (await manager.read(id)).messages.filter((m) => m.role === 'user').map((m) => m.content);
  for (const line of lines) {
    const text = line.toString('utf8');
    if (!stored.includes(text)) tally.fail('inputMangled', `stored ${JSON.stringify(stored)} lacks ${JSON.stringify(text)}`);
  }
  const again = await runPiped(['--session-id', id, '--autosave', 'off'], 'after\n/quit\n', { home, cwd });
  if (again.code !== 0) tally.fail('crashes', `resume after control characters: exit ${again.code}: ${again.stderr.slice(-300)}`);
}

/** One 10 MB line, typed into the REPL: stored whole, the session resumes. */
export async function hugeLine(root: string, megabytes: number, tally: Tally): Promise<void> {
  const home = freshDir(root, 'huge-home-');
  const cwd = freshDir(root, 'huge-project-');
  // Words of 64 KiB: one line of `megabytes` MB whose reply streams in a few hundred pieces.
  const word = 'abcdefghijklmnopqrstuvwxyz'.repeat(2521).slice(0, 65_535);
  const line = Array.from({ length: Math.ceil((megabytes * 1024 * 1024) / 65_536) }, () => word).join(' ');
  const result = await runPiped(['--autosave', 'off'], `${line}\n/quit\n`, { home, cwd, timeout: 180_000 });
  tally.max('hugeLineBytes', Buffer.byteLength(line));
  tally.max('hugeLineMs', result.ms);
  if (result.code !== 0) {
    tally.fail('crashes', `10 MB line: exit ${result.code}: ${result.stderr.slice(-300)}`);
    return;
  }
  const id = /· session (\S+) ·/.exec(result.stderr)?.[1] ?? '';
  const messages = (await (await openSessions({ home, cwd })).read(id)).messages;
  if (messages[0]?.content.length !== line.length || sha(messages[0].content) !== sha(line)) {
    tally.fail('inputMangled', `10 MB line stored as ${messages[0]?.content.length ?? 'nothing'} characters`);
  }
  if (!messages[1]?.content.startsWith(`Echo: ${word}`)) tally.fail('inputMangled', '10 MB line: no reply stored');
  const again = await runPiped(['--session-id', id, '--autosave', 'off'], '/quit\n', { home, cwd, timeout: 120_000 });
  tally.max('hugeLineResumeMs', again.ms);
  if (again.code !== 0) tally.fail('crashes', `resume of the 10 MB session: exit ${again.code}: ${again.stderr.slice(-300)}`);
}

/**
 * A line built to make backtracking regular expressions quadratic: one word of `megabytes` MB
 * of `x-a.` (a word boundary every character or two). Redaction and the reply boundary must
 * stay linear, or the REPL hangs.
 */
export async function adversarialLine(root: string, megabytes: number, tally: Tally): Promise<void> {
  const home = freshDir(root, 'redos-home-');
  const cwd = freshDir(root, 'redos-project-');
  const line = 'x-a.Ab9_'.repeat(Math.ceil((megabytes * 1024 * 1024) / 8));
  const result = await runPiped(['--autosave', 'off'], `${line}\n/quit\n`, { home, cwd, timeout: 120_000 });
  tally.max('adversarialLineMs', result.ms);
  if (result.code !== 0) tally.fail('crashes', `adversarial line: exit ${result.code} after ${result.ms} ms: ${result.stderr.slice(-300)}`);
  else if (!result.stdout.startsWith('Echo: x-a.Ab9_')) tally.fail('inputMangled', 'adversarial line: no reply');
}

const PROTO_CONTENT = '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "prototype": 1}';
const PROTO_ARGS = '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}},"nested":{"__proto__":[1,2]}}';

const PROTO_MESSAGES: NewMessage[] = [
  { role: 'user', content: PROTO_CONTENT },
  { role: 'assistant', content: '', toolCalls: [{ id: '__proto__', name: 'constructor', arguments: PROTO_ARGS }] },
  { role: 'tool', content: PROTO_ARGS, toolCallId: '__proto__' },
  { role: 'assistant', content: '__proto__' },
];

function same(message: Message | undefined, want: NewMessage): boolean {
  if (!message) return false;
  const pick = (m: NewMessage | Message) => JSON.stringify([m.role, m.content, m.toolCalls ?? null, m.toolCallId ?? null]);
  return pick(message) === pick(want) && Object.getPrototypeOf(message) === Object.prototype;
}

/** `__proto__` / `constructor` keys: journal, snapshot and resume give them back intact; nothing is polluted. */
export async function protoKeys(root: string, tally: Tally): Promise<void> {
  const home = freshDir(root, 'proto-home-');
  const cwd = freshDir(root, 'proto-project-');
  const manager = await openSessions({ home, cwd });
  const session = await manager.create();
  for (const message of PROTO_MESSAGES) await session.append(message);
  const check = (where: string, messages: readonly Message[]): void => {
    tally.add('protoRoundTrips');
    PROTO_MESSAGES.forEach((want, i) => {
      if (!same(messages[i], want)) tally.fail('protoKeysMangled', `${where}: message ${i} came back as ${JSON.stringify(messages[i])}`);
    });
  };
  check('journal', (await manager.read(session.id)).messages);
  await session.save();
  check('snapshot', (await manager.read(session.id)).messages);
  await session.close();
  const resumed = await manager.resume(session.id);
  check('resume', resumed.messages);
  await resumed.close();
  const polluted = ({} as Record<string, unknown>).isAdmin ?? ({} as Record<string, unknown>).polluted;
  if (polluted !== undefined) tally.fail('protoKeysMangled', 'Object.prototype was polluted');

  // The same through the binary: typed, then exported by `sessions show --json`.
  const typed = await runPiped(['--autosave', 'off'], `${PROTO_CONTENT}\n/quit\n`, { home, cwd });
  const id = /· session (\S+) ·/.exec(typed.stderr)?.[1] ?? '';
  const show = await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd });
  tally.add('protoRoundTrips');
  try {
    const exported = JSON.parse(show.stdout) as { messages: { content: string }[] };
    if (exported.messages[0]?.content !== PROTO_CONTENT) tally.fail('protoKeysMangled', `sessions show: ${JSON.stringify(exported.messages[0])}`);
  } catch {
    tally.fail('protoKeysMangled', `sessions show exit ${show.code}: ${show.stderr.slice(-300)}`);
  }
}
