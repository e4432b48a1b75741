/**
 * What a host shows is what was stored: the AI SDK store's `push` and the readline adapter's
 * `record` resolve to the text as journaled (secrets redacted, cut where a crash keeps it), and
 * the readline example prints only that.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import readline from 'node:readline';
import { describe, expect, it } from 'vitest';
import { openSessions } from '../../src/index.js';
import { openChatStore } from '../../src/frameworks/ai-sdk/index.js';
import { attachReadline } from '../../src/repl/index.js';
import { ROOT } from '../../torture/proc.js';
import { tmpHome } from '../helpers/tmp-home.js';

const SECRET = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD';

describe('the text a host shows is the text stored', () => {
  it("AI SDK: push resolves to each piece as it was stored, the secret redacted", async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: home });
    const store = await openChatStore(sessions, { holdMs: 0 });
    await store.saveChat({ chatId: 'c1', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'key?' }] }] });
    const reply = await store.streamReply('c1');
    const shown = [await reply.push('Your key is '), await reply.push(SECRET.slice(0, 20)), await reply.push(`${SECRET.slice(20)} ok `), await reply.push('and mo')];
    expect(shown[0]).toBe('Your key is ');
    // Half a secret is not stored (nor shown) until its word ends.
    expect(shown[1]).toBe('');
    expect(shown[2]).not.toContain(SECRET.slice(0, 12));
    expect(shown[2]).toMatch(/^\[REDACTED:[^\]]+\] ok $/);
    expect(shown[3]).toBe('and ');
    await reply.finish({ id: 'a1', role: 'assistant', parts: [{ type: 'text', text: `Your key is ${SECRET} ok and more` }] });
    await store.close();
    await sessions.close();
  });

  it('readline: record resolves to the answer as stored, and the example prints that', async () => {
    const home = tmpHome();
    const input = new PassThrough();
    const output = new PassThrough();
    const rl = readline.createInterface({ input, output: new PassThrough(), terminal: false });
    const chat = await attachReadline(rl, { home, cwd: home, output, host: { program: 'host' } });
    expect(await chat.record('my key?', `It is ${SECRET}.`)).toMatch(/^It is \[REDACTED:[^\]]+\]\.$/);
    rl.close();
    await chat.leave();

    // The example shouts the line back: an AWS key ID stays one in capitals.
    const awsKey = 'AKIAIOSFODNN7EXAMPLE';
    const example = spawnSync(process.execPath, [join(ROOT, 'examples/embed-readline.mjs')], { cwd: home, input: `${awsKey}\n/quit\n`, encoding: 'utf8', env: { ...process.env, CHATKEEP_HOME: join(home, 'data'), NO_COLOR: '1' } });
    expect(example.stdout).not.toContain(awsKey);
    expect(example.stdout).toMatch(/you> \[REDACTED:[^\]]+\]!\n/);
  });
});
