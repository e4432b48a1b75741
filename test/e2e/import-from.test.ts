/**
 * `chatkeep sessions import --from claude|codex|gemini`, run as a person runs it, on the session
 * files the real tools wrote (test/fixtures/peers, made by scripts/make-peer-fixtures.mjs):
 * what each session holds, idempotence, sources that grew, bad files, dry runs, the tools'
 * own stores, and resuming an import with a real provider's wire format.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startFakeLlmServer } from '../helpers/fake-llm-server.js';
import { runPiped, spawnPty, type RunOptions } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { treeDigest } from '../helpers/tree-digest.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/peers');
/** Where the tools were run (scripts/make-peer-fixtures.mjs): the project the sessions belong to. */
const WORK = '/tmp/chatkeep-peers/work';
const SECRET = 'ghp_FAKEfakeFAKEfake0123456789abcdefABCDEF';
const NOTE = 'The note says: bring your history along.';

interface Fixture {
  tool: 'claude' | 'codex' | 'gemini';
  name: string;
  dir: string;
  sessionId: string;
  /** The session file, relative to `dir`. */
  file: string;
}

function fixture(tool: Fixture['tool']): Fixture {
  const name = readdirSync(FIXTURES).find((d) => d.startsWith(`${tool}-`))!;
  const dir = join(FIXTURES, name);
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { sessionId: string; files: string[] };
  const file = manifest.files.find((f) => /\.jsonl$/.test(f) && !f.endsWith('session_index.jsonl'))!;
  return { tool, name, dir, sessionId: manifest.sessionId, file };
}

const FIXTURE = { claude: fixture('claude'), codex: fixture('codex'), gemini: fixture('gemini') };
const NAMES = { claude: 'Claude Code', codex: 'Codex CLI', gemini: 'Gemini CLI' };

/** Runs chatkeep with no inherited tool homes (each test names the ones it means). */
function chatkeep(args: string[], options: RunOptions, input = ''): ReturnType<typeof runPiped> {
  const user = tmpHome('chatkeep-user-');
  const env = { HOME: user, CLAUDE_CONFIG_DIR: join(user, '.claude'), CODEX_HOME: join(user, '.codex'), GEMINI_CLI_HOME: user, ...options.env };
  return runPiped(args, input, { ...options, env });
}

interface ShownMessage {
  role: string;
  content: string;
  timestamp: string;
  model?: string;
  toolCalls?: { id: string; name: string; arguments: string }[];
  toolCallId?: string;
}
interface Shown {
  id: string;
  title: string | null;
  project: string;
  git?: { branch: string | null };
  parentId?: string;
  forkPoint?: number;
  provider: { name: string; model: string | null };
  importSource: { tool: string; id: string; path: string; lines: number; messages: number; kept?: { at: number; line: string }[] };
  messages: ShownMessage[];
}

async function show(id: string, options: RunOptions): Promise<Shown> {
  const run = await chatkeep(['sessions', 'show', id, '--json'], options);
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as Shown;
}

describe('sessions import --from', () => {
  for (const tool of ['claude', 'codex', 'gemini'] as const) {
    it(`imports ${NAMES[tool]}'s session as the tool wrote it, and a second run imports nothing`, async () => {
      const f = FIXTURE[tool];
      const home = tmpHome();
      const cwd = tmpHome('chatkeep-project-');
      const id = `${tool}-${f.sessionId}`;
      const first = await chatkeep(['sessions', 'import', '--from', tool, f.dir], { home, cwd });
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(
        new RegExp(`^Imported ${NAMES[tool]} session ${f.sessionId} as ${id}: \\d+ messages \\(\\d+ source lines kept as they were\\), into project ${WORK}\\.\\nImported 1 session\\.\\nResume with: .*--session-id ${id}\\n$`),
      );

      const s = await show(id, { home, cwd });
      expect(s.project).toBe(WORK);
      expect(s.title).toBe('Hello! Please remember the word aubergine.');
      expect(s.importSource).toMatchObject({ tool, id: f.sessionId, path: join(f.dir, f.file) });
      expect(s.importSource.kept!.length).toBeGreaterThan(0);
      // The three turns, the second one through a tool call and its result.
      const users = s.messages.filter((m) => m.role === 'user').map((m) => m.content);
      expect(users).toEqual([
        'Hello! Please remember the word aubergine.',
        `Now read the file ${WORK}/note.txt and tell me what it says.`,
        'Thanks. My token is [REDACTED:github-token], never repeat it.',
      ]);
      const call = s.messages.findIndex((m) => m.toolCalls?.length);
      expect(s.messages[call]!.role).toBe('assistant');
      const [toolCall] = s.messages[call]!.toolCalls!;
      expect(toolCall!.arguments).toContain(`${WORK}/note.txt`);
      expect(s.messages[call + 1]).toMatchObject({ role: 'tool', toolCallId: toolCall!.id });
      expect(s.messages[call + 1]!.content).toContain(NOTE);
      expect(s.messages[call + 2]!.role).toBe('assistant');
      expect(s.messages.filter((m) => m.role === 'assistant' && m.content !== '')).toHaveLength(3);
      // Times as the tool recorded them; the model of each reply.
      const source = readFileSync(join(f.dir, f.file), 'utf8');
      for (const m of s.messages) expect(source).toContain(m.timestamp);
      expect(s.messages.find((m) => m.role === 'assistant')!.model).toMatch(/\S/);
      if (tool !== 'gemini') expect(s.git?.branch).toBe('feature/peer-import');
      // The secret is redacted in the kept source lines as well.
      expect(JSON.stringify(s)).not.toContain(SECRET);

      const text = await chatkeep(['sessions', 'show', id], { home, cwd });
      expect(text.stdout).toContain(`  imported from ${NAMES[tool]} session ${f.sessionId}, ${join(f.dir, f.file)} (`);
      expect(text.stdout).toContain(`[tool call ${toolCall!.name} `);

      const before = treeDigest(home);
      const second = await chatkeep(['sessions', 'import', '--from', tool, f.dir], { home, cwd });
      expect(second.stdout).toBe(`Nothing to import: 1 ${NAMES[tool]} session already imported and unchanged.\n`);
      expect(second.code).toBe(0);
      expect(treeDigest(home)).toEqual(before);
    });
  }

  it('keeps secrets with --no-redact, and writes nothing at all on --dry-run', async () => {
    const f = FIXTURE.claude;
    const home = join(tmpHome(), 'data');
    const cwd = tmpHome('chatkeep-project-');
    const dry = await chatkeep(['sessions', 'import', '--from', 'claude', '--dry-run', f.dir], { home, cwd });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(new RegExp(`^Would import Claude Code session ${f.sessionId} as claude-${f.sessionId}: 8 messages .*, into project ${WORK}\\.\\nWould import 1 session \\(dry run: nothing was written\\)\\.\\n$`));
    expect(existsSync(home)).toBe(false);
    const json = await chatkeep(['sessions', 'import', '--from', 'claude', '--dry-run', '--json', f.dir], { home, cwd });
    expect(JSON.parse(json.stdout)).toMatchObject({ tool: 'claude', dryRun: true, counts: { new: 1, failed: 0 }, results: [{ action: 'new', id: `claude-${f.sessionId}`, project: WORK, messages: 8 }] });
    expect(existsSync(home)).toBe(false);

    await chatkeep(['sessions', 'import', '--from', 'claude', '--no-redact', f.dir], { home, cwd });
    const s = await show(`claude-${f.sessionId}`, { home, cwd });
    expect(s.messages.map((m) => m.content).join('\n')).toContain(SECRET);
  });

  // 1 good file is read in this thread; 40 and more are read on a reading thread (src/import/readers.ts).
  for (const good of [1, 40]) {
    it(`reports each bad file on a line of its own, imports the others, and exits 1 (${good} good file${good > 1 ? 's' : ''})`, async () => {
      const home = tmpHome();
      const cwd = tmpHome('chatkeep-project-');
      const dir = tmpHome('chatkeep-sources-');
      const f = FIXTURE.claude;
      const text = readFileSync(join(f.dir, f.file), 'utf8');
      const ids = Array.from({ length: good }, (_, i) => (i === 0 ? f.sessionId : `${f.sessionId.slice(0, -4)}${String(i).padStart(4, '0')}`));
      for (const id of ids) writeFileSync(join(dir, `${id}.jsonl`), text.replaceAll(f.sessionId, id));
      writeFileSync(join(dir, 'garbage.jsonl'), 'this is not JSON\nnor this\n');
      writeFileSync(join(dir, 'empty.jsonl'), '');
      // Another tool's file is not a Claude Code session either.
      cpSync(join(FIXTURE.codex.dir, FIXTURE.codex.file), join(dir, 'codex.jsonl'));
      const run = await chatkeep(['sessions', 'import', '--from', 'claude', dir, join(cwd, 'missing.jsonl')], { home, cwd });
      expect(run.code).toBe(1);
      expect(run.stderr.split('\n').filter(Boolean).sort()).toEqual([
        `Could not import ${join(cwd, 'missing.jsonl')}: there is no such file or folder.`,
        `Could not import ${join(dir, 'codex.jsonl')}: not a Claude Code session (no user or assistant lines).`,
        `Could not import ${join(dir, 'empty.jsonl')}: not a Claude Code session (no user or assistant lines).`,
        `Could not import ${join(dir, 'garbage.jsonl')}: not a Claude Code session (no user or assistant lines).`,
      ].sort());
      // One session imported is offered to resume; of many, the listing says which.
      expect(run.stdout).toMatch(new RegExp(`\nImported ${good} session${good > 1 ? 's' : ''}; 4 files could not be imported\\.\n${good === 1 ? 'Resume with: .*\n' : ''}$`));
      const list = await chatkeep(['sessions', 'list', '--all', '--json'], { home, cwd });
      expect((JSON.parse(list.stdout) as { id: string }[]).map((r) => r.id).sort()).toEqual(ids.map((id) => `claude-${id}`).sort());
      // Each one whole, as read.
      const last = await show(`claude-${ids.at(-1)}`, { home, cwd });
      expect(last.messages).toHaveLength(8);
      expect(last.importSource).toMatchObject({ tool: 'claude', id: ids.at(-1), path: join(dir, `${ids.at(-1)}.jsonl`) });
    });
  }

  it('brings a grown source up to date, and imports it as a new session when the copy was continued here', async () => {
    const f = FIXTURE.claude;
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const dir = tmpHome('chatkeep-sources-');
    const file = join(dir, `${f.sessionId}.jsonl`);
    const lines = readFileSync(join(f.dir, f.file), 'utf8').split('\n');
    // The file as it was after the second turn: up to the reply that follows the tool's result.
    const cut = lines.findIndex((l) => l.includes('"q3w001'));
    writeFileSync(file, `${lines.slice(0, cut + 1).join('\n')}\n`);
    const id = `claude-${f.sessionId}`;
    const options = { home, cwd };
    expect((await chatkeep(['sessions', 'import', '--from', 'claude', file], options)).stdout).toContain(`as ${id}: 6 messages`);

    writeFileSync(file, lines.join('\n'));
    const update = await chatkeep(['sessions', 'import', '--from', 'claude', file], options);
    expect(update.stdout).toBe(`Brought ${id} up to date with Claude Code session ${f.sessionId}: 2 new messages.\nImported 0 sessions, brought 1 up to date.\n`);
    expect((await show(id, options)).messages).toHaveLength(8);

    // Continued in chatkeep, then grown in Claude Code: the copy is never overwritten.
    writeFileSync(file, `${lines.slice(0, cut + 1).join('\n')}\n`);
    const other = { home: tmpHome(), cwd };
    await chatkeep(['sessions', 'import', '--from', 'claude', file], other);
    const resumed = await chatkeep(['--session-id', id, '--provider', 'echo'], other, 'typed in chatkeep\n/quit\n');
    expect(resumed.code).toBe(0);
    writeFileSync(file, lines.join('\n'));
    const again = await chatkeep(['sessions', 'import', '--from', 'claude', file], other);
    expect(again.stdout).toBe(
      `Imported Claude Code session ${f.sessionId} again as ${id}.2, continuing ${id} (which was continued here): 2 new messages.\nImported 1 session.\nResume with: ${again.stdout.split('Resume with: ')[1]}`,
    );
    const copy = await show(id, other);
    expect(copy.messages.map((m) => m.content)).toContain('typed in chatkeep');
    const continuation = await show(`${id}.2`, other);
    expect(continuation).toMatchObject({ parentId: id, forkPoint: 6 });
    expect(continuation.messages).toHaveLength(8);
    expect((await chatkeep(['sessions', 'import', '--from', 'claude', file], other)).stdout).toBe('Nothing to import: 1 Claude Code session already imported and unchanged.\n');
  });

  it('brings grown sources up to date among many files (read again on a reading thread)', async () => {
    const f = FIXTURE.claude;
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const dir = tmpHome('chatkeep-sources-');
    const lines = readFileSync(join(f.dir, f.file), 'utf8').split('\n');
    const cut = lines.findIndex((l) => l.includes('"q3w001'));
    const ids = Array.from({ length: 40 }, (_, i) => `${f.sessionId.slice(0, -4)}${String(i).padStart(4, '0')}`);
    const write = (id: string, upTo: number): void => writeFileSync(join(dir, `${id}.jsonl`), `${lines.slice(0, upTo).join('\n').replaceAll(f.sessionId, id)}\n`);
    for (const id of ids) write(id, cut + 1);
    const options = { home, cwd };
    expect((await chatkeep(['sessions', 'import', '--from', 'claude', dir], options)).stdout).toContain('\nImported 40 sessions.\n');
    // One continued in chatkeep; then both it and another grow in Claude Code.
    const resumed = await chatkeep(['--session-id', `claude-${ids[7]}`, '--provider', 'echo'], options, 'typed in chatkeep\n/quit\n');
    expect(resumed.code).toBe(0);
    write(ids[3]!, lines.length);
    write(ids[7]!, lines.length);
    const again = await chatkeep(['sessions', 'import', '--from', 'claude', '--json', dir], options);
    expect(again.code).toBe(0);
    const report = JSON.parse(again.stdout) as { counts: Record<string, number>; results: { action: string; id: string; sourceId: string; messages: number; newMessages?: number }[] };
    expect(report.counts).toMatchObject({ new: 0, updated: 1, continued: 1, unchanged: 38, failed: 0 });
    expect(report.results.filter((r) => r.action !== 'unchanged').map((r) => [r.action, r.id, r.messages, r.newMessages])).toEqual([
      ['updated', `claude-${ids[3]}`, 8, 2],
      ['continued', `claude-${ids[7]}.2`, 8, 2],
    ]);
    expect((await show(`claude-${ids[3]}`, options)).messages).toHaveLength(8);
    expect((await show(`claude-${ids[7]}`, options)).messages.map((m) => m.content)).toContain('typed in chatkeep');
    expect(await show(`claude-${ids[7]}.2`, options)).toMatchObject({ parentId: `claude-${ids[7]}`, forkPoint: 6 });
  });

  it("reads each tool's own store: this project's sessions, or every project's with --all", async () => {
    const user = tmpHome('chatkeep-user-');
    cpSync(join(FIXTURE.claude.dir, '.claude'), join(user, 'claude-config'), { recursive: true });
    cpSync(join(FIXTURE.codex.dir, '.codex'), join(user, 'codex-home'), { recursive: true });
    cpSync(join(FIXTURE.gemini.dir, '.gemini'), join(user, 'gemini', '.gemini'), { recursive: true });
    const env = { CLAUDE_CONFIG_DIR: join(user, 'claude-config'), CODEX_HOME: join(user, 'codex-home'), GEMINI_CLI_HOME: join(user, 'gemini') };
    const home = tmpHome();
    const elsewhere = tmpHome('chatkeep-project-');
    const none = await chatkeep(['sessions', 'import', '--from', 'codex'], { home, cwd: elsewhere, env });
    expect(none.stdout).toBe(`No Codex CLI sessions found for this project in ${env.CODEX_HOME} (--all imports every project's).\n`);
    for (const tool of ['claude', 'codex', 'gemini'] as const) {
      const run = await chatkeep(['sessions', 'import', '--from', tool, '--all', '--json'], { home, cwd: elsewhere, env });
      expect(JSON.parse(run.stdout)).toMatchObject({ counts: { new: 1 }, results: [{ id: `${tool}-${FIXTURE[tool].sessionId}`, project: WORK }] });
    }
    // Run from the directory the sessions were held in, the store's sessions of that project are found.
    if (!existsSync(WORK)) {
      mkdirSync(WORK, { recursive: true });
      onTestFinished(() => rmSync(WORK, { recursive: true, force: true }));
    }
    const other = tmpHome();
    for (const tool of ['claude', 'codex', 'gemini'] as const) {
      const run = await chatkeep(['sessions', 'import', '--from', tool, '--since', '3650d'], { home: other, cwd: WORK, env });
      expect(run.stdout).toContain(`Imported ${NAMES[tool]} session ${FIXTURE[tool].sessionId} as ${tool}-`);
    }
    // --since leaves out files not changed within it.
    const old = new Date('2001-01-01T00:00:00Z');
    utimesSync(join(user, 'claude-config', FIXTURE.claude.file.replace(/^\.claude\//, '')), old, old);
    const recent = await chatkeep(['sessions', 'import', '--from', 'claude', '--since', '1d', '--all'], { home: tmpHome(), cwd: elsewhere, env });
    expect(recent.stdout).toBe(`No Claude Code sessions changed in the last 1d found in ${env.CLAUDE_CONFIG_DIR}.\n`);
  });

  it('resumes an import with the anthropic and openai providers: every tool call is followed by its result', async () => {
    for (const [api, tool] of [['anthropic', 'claude'], ['openai', 'codex']] as const) {
      const f = FIXTURE[tool];
      const server = await startFakeLlmServer(api, [{ text: ['It said', ' to bring your history.'], usage: { input: 40, output: 6 } }]);
      const home = tmpHome();
      const cwd = tmpHome('chatkeep-project-');
      const key: Record<string, string> = api === 'anthropic' ? { ANTHROPIC_API_KEY: 'sk-ant-test-0000000000000000', ANTHROPIC_BASE_URL: server.baseURL } : { OPENAI_API_KEY: 'sk-test-00000000000000000000', OPENAI_BASE_URL: server.baseURL };
      const env = { ...key, CHATKEEP_MAX_RETRIES: '0' };
      await chatkeep(['sessions', 'import', '--from', tool, f.dir], { home, cwd });
      // The session keeps the provider its tool talked to: no flag needed.
      const run = await chatkeep(['--session-id', `${tool}-${f.sessionId}`], { home, cwd, env }, 'What did the note say?\n/quit\n');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('It said to bring your history.');
      const sent = server.requests[0]!.body.messages as { role: string; content: string }[];
      const turns = sent.filter((m) => m.role !== 'system');
      expect(turns[0]).toEqual({ role: 'user', content: 'Hello! Please remember the word aubergine.' });
      const call = turns.findIndex((m) => m.content.includes('[tool call '));
      expect(turns[call]!.role).toBe('assistant');
      const callId = /\[tool call (\S+): /.exec(turns[call]!.content)![1]!;
      expect(turns[call + 1]!.role).toBe('user');
      expect(turns[call + 1]!.content.startsWith(`[tool result ${callId}]\n`)).toBe(true);
      expect(turns[call + 1]!.content).toContain(NOTE);
      expect(turns.at(-1)).toEqual({ role: 'user', content: 'What did the note say?' });
      expect(turns.every((m, i) => i === 0 || m.content.trim() !== '')).toBe(true);
    }
  });

  it('closes a tool call the source left unanswered before a provider sees it', async () => {
    const f = FIXTURE.claude;
    const dir = tmpHome('chatkeep-sources-');
    const lines = readFileSync(join(f.dir, f.file), 'utf8').split('\n');
    // Claude Code stopped right after asking for the tool.
    const cut = lines.findIndex((l) => l.includes('"type":"tool_use"'));
    writeFileSync(join(dir, `${f.sessionId}.jsonl`), `${lines.slice(0, cut + 1).join('\n')}\n`);
    const server = await startFakeLlmServer('openai', [{ text: ['Sorry,', ' the tool never answered.'] }]);
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    await chatkeep(['sessions', 'import', '--from', 'claude', dir], { home, cwd });
    const env = { OPENAI_API_KEY: 'sk-test-00000000000000000000', OPENAI_BASE_URL: server.baseURL, CHATKEEP_MAX_RETRIES: '0' };
    const run = await chatkeep(['--session-id', `claude-${f.sessionId}`, '--provider', 'openai', '--model', 'gpt-test'], { home, cwd, env }, 'Still there?\n/quit\n');
    expect(run.code).toBe(0);
    const turns = (server.requests[0]!.body.messages as { role: string; content: string }[]).filter((m) => m.role !== 'system');
    const call = turns.findIndex((m) => m.content.includes('[tool call '));
    const callId = /\[tool call (\S+): Read\(/.exec(turns[call]!.content)![1]!;
    expect(turns.slice(call + 1)).toEqual([
      { role: 'user', content: `[tool result ${callId}]\n(no result: this tool call was never answered)` },
      { role: 'user', content: 'Still there?' },
    ]);
  });

  it('lists, searches, exports and forks imported sessions like any other', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const options = { home, cwd };
    for (const tool of ['claude', 'codex', 'gemini'] as const) await chatkeep(['sessions', 'import', '--from', tool, FIXTURE[tool].dir], options);
    const ids = (['claude', 'codex', 'gemini'] as const).map((tool) => `${tool}-${FIXTURE[tool].sessionId}`);
    const list = JSON.parse((await chatkeep(['sessions', 'list', '--all', '--json'], options)).stdout) as { id: string; project: string }[];
    expect(list.map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(list.every((r) => r.project === WORK)).toBe(true);
    const found = JSON.parse((await chatkeep(['sessions', 'search', 'aubergine', '--all', '--json'], options)).stdout) as { results: { id: string }[] };
    expect(found.results.map((r) => r.id).sort()).toEqual([...ids].sort());
    // The tool's result is searchable text too.
    const note = JSON.parse((await chatkeep(['sessions', 'search', 'bring your history', '--all', '--json'], options)).stdout) as { total: number };
    expect(note.total).toBe(3);

    const markdown = await chatkeep(['sessions', 'export', ids[0]!, '--format', 'md'], options);
    expect(markdown.stdout).toContain(`Claude Code session ${FIXTURE.claude.sessionId}`);
    expect(markdown.stdout).toContain('Tool call `Read`');
    // A JSON export taken to another data directory keeps where it came from, and what was kept.
    const exported = (await chatkeep(['sessions', 'export', ids[1]!], options)).stdout;
    const other = { home: tmpHome(), cwd };
    expect((await chatkeep(['sessions', 'import', '-'], other, exported)).code).toBe(0);
    const copy = await show(ids[1]!, other);
    expect(copy.importSource).toEqual((await show(ids[1]!, options)).importSource);

    const fork = await chatkeep(['--fork', ids[2]!, '--at', '5', '--provider', 'echo'], options, 'and after the tool?\n/quit\n');
    expect(fork.code).toBe(0);
    const child = /New session (\S+), forked from/.exec(fork.stderr)![1]!;
    const forked = await show(child, options);
    expect(forked).toMatchObject({ parentId: ids[2], forkPoint: 5 });
    expect(forked.messages.slice(0, 5)).toEqual((await show(ids[2]!, options)).messages.slice(0, 5));
    expect(forked.messages.at(-2)).toMatchObject({ role: 'user', content: 'and after the tool?' });
  });

  it('shows its progress on a terminal while it reads many files, and clears it', async () => {
    const f = FIXTURE.claude;
    const dir = tmpHome('chatkeep-sources-');
    const text = readFileSync(join(f.dir, f.file), 'utf8');
    // 60 conversations: the one Claude Code wrote, under 60 session IDs.
    for (let i = 0; i < 60; i++) {
      const id = `${f.sessionId.slice(0, -4)}${String(i).padStart(4, '0')}`;
      writeFileSync(join(dir, `${id}.jsonl`), text.replaceAll(f.sessionId, id));
    }
    const run = spawnPty(['sessions', 'import', '--from', 'claude', dir], { home: tmpHome(), cwd: tmpHome('chatkeep-project-'), env: { HOME: tmpHome('chatkeep-user-') } });
    await run.waitFor('Imported 60 sessions.');
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain('Reading Claude Code sessions: 60 of 60');
    const seen = await run.visible();
    expect(seen.filter((l) => l.includes('Reading'))).toEqual([]);
    expect(run.screen().match(/^Imported Claude Code session /gm)).toHaveLength(60);
    expect(seen).toContain('Imported 60 sessions.');
  });

  it('exports a session --format claude as a file the real Claude Code resumes', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const f = FIXTURE.claude;
    await chatkeep(['sessions', 'import', '--from', 'claude', f.dir], { home, cwd });
    const exported = await chatkeep(['sessions', 'export', `claude-${f.sessionId}`, '--format', 'claude'], { home, cwd });
    expect(exported.code).toBe(0);
    // The very file that `claude -p --resume` continued (scripts/make-peer-fixtures.mjs --export-only),
    // sending the whole conversation, its tool call and result included, ahead of the new question.
    const proof = join(FIXTURES, '../peers-roundtrip', f.name);
    expect(exported.stdout).toBe(readFileSync(join(proof, 'exported-by-chatkeep.jsonl'), 'utf8'));
    const resumed = JSON.parse(readFileSync(join(proof, 'resume-of-export.json'), 'utf8')) as { claudeSessionId: string; sent: { role: string; text: string }[] };
    expect(JSON.parse(exported.stdout.split('\n')[0]!)).toMatchObject({ sessionId: resumed.claudeSessionId, cwd: WORK, gitBranch: 'feature/peer-import' });
    const turns = resumed.sent.filter((m) => m.role !== 'system').map((m) => m.text);
    expect(turns.slice(0, 5)).toEqual([
      'Hello! Please remember the word aubergine.',
      expect.stringMatching(/^q1w001/),
      `Now read the file ${WORK}/note.txt and tell me what it says.`,
      `[tool_use Read {"file_path":"${WORK}/note.txt"}]`,
      expect.stringContaining(NOTE),
    ]);
    expect(turns.at(-1)).toContain('which word did I ask you to remember?');

    // Another tool's session: every tool_use is answered by the next line's tool_result.
    await chatkeep(['sessions', 'import', '--from', 'codex', FIXTURE.codex.dir], { home, cwd });
    const codex = (await chatkeep(['sessions', 'export', `codex-${FIXTURE.codex.sessionId}`, '--format', 'claude'], { home, cwd })).stdout;
    const lines = codex.trim().split('\n').map((l) => JSON.parse(l) as { type: string; message: { content: unknown } });
    const uses = lines.flatMap((l, i) => (Array.isArray(l.message.content) ? (l.message.content as { type: string; id?: string }[]).filter((b) => b.type === 'tool_use').map((b) => [i, b.id]) : []));
    expect(uses).toHaveLength(1);
    const [[at, callId]] = uses as [number, string][];
    expect(lines[at + 1]!.message.content).toEqual([expect.objectContaining({ type: 'tool_result', tool_use_id: callId })]);
  });

  it('refuses a bad command line in one line (exit 2)', async () => {
    const options = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const cases: [string[], string][] = [
      [['--from', 'cursor'], '--from takes claude, codex or gemini, not cursor'],
      [['--dry-run', 'x.json'], "--dry-run goes with --from TOOL (importing another tool's sessions)"],
      [['--from', 'claude', '--since', 'soon'], 'Bad --since `soon`'],
      [['--from', 'claude', '--all', 'x'], 'give PATHs or --all, not both'],
    ];
    for (const [args, message] of cases) {
      const run = await chatkeep(['sessions', 'import', ...args], options);
      expect(run.code).toBe(2);
      expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
      expect(run.stderr).toContain(message);
    }
  });
});
