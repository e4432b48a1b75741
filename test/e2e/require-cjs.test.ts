/**
 * A CommonJS LangChain host: `require('chatkeep/langchain')` loads the history (its own entry,
 * since the ES one waits for `@langchain/core` with a top-level await that require() refuses),
 * and the messages it keeps come back as LangChain's classes.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../torture/proc.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('chatkeep/langchain from require()', () => {
  it('keeps and gives back the messages of a CommonJS host', () => {
    const home = tmpHome();
    // A host project with this checkout installed as `chatkeep` (and LangChain beside it).
    const project = tmpHome('chatkeep-cjs-host-');
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(ROOT, join(project, 'node_modules', 'chatkeep'));
    symlinkSync(join(ROOT, 'node_modules', '@langchain'), join(project, 'node_modules', '@langchain'));
    const host = join(project, 'host.cjs');
    writeFileSync(
      host,
      [
        "const { openSessions } = require('chatkeep');",
        "const { openChatHistory } = require('chatkeep/langchain');",
        "const { HumanMessage, AIMessage } = require('@langchain/core/messages');",
        '(async () => {',
        `  const sessions = await openSessions({ home: ${JSON.stringify(home)}, cwd: process.cwd() });`,
        "  const history = await openChatHistory(sessions, { id: 'cjs-chat' });",
        "  await history.addMessages([new HumanMessage('hi'), new AIMessage('hello')]);",
        "  console.log((await history.getMessages()).map((m) => `${m.getType()}: ${m.content}`).join('; '));",
        '  await history.close();',
        '  await sessions.close();',
        '})();',
        '',
      ].join('\n'),
    );
    const done = spawnSync(process.execPath, [host], { cwd: project, encoding: 'utf8' });
    expect(done.stderr).toBe('');
    expect(done.stdout).toBe('human: hi; ai: hello\n');
    const shown = spawnSync(process.execPath, [join(ROOT, 'bin/chatkeep.js'), 'sessions', 'show', 'cjs-chat'], { cwd: project, encoding: 'utf8', env: { ...process.env, CHATKEEP_HOME: home, NO_COLOR: '1' } });
    expect(shown.stdout).toContain('hello');
  });
});
