import { join } from 'node:path';

import { describe, expect, it, onTestFinished } from 'vitest';
import { tmpHome } from '../../helpers/tmp-home.js';
import { createRedactor, openSessions } from '../../../src/index.js';
import { allFiles, filesContaining } from '../../helpers/files.js';

const ANTHROPIC = 'sk-ant-api03-Zq8xW2vB7nK4mP1rT6yU9iO3aS5dF0gH-jL2cX7vB';
const GITHUB = 'ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const PEM_BODY = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj';
const PEM = `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\nMuXrT2mZ9kQw3PzL0aV7e6yB1nC4fH8jD5sG2tR9uW0xY3\n-----END RSA PRIVATE KEY-----`;
const ENV_SECRET = 'hunter2-correct-horse-battery';

describe('redaction', () => {
  const redact = createRedactor({ env: { MY_API_KEY: ENV_SECRET, SHORT_TOKEN: 'abc', PATH: '/usr/bin:/bin' } });

  it.each([
    [`key ${ANTHROPIC} end`, 'key [REDACTED:anthropic-key] end'],
    ['sk-proj-abcdefghijklmnopqrstuvwxyz0123456789', '[REDACTED:openai-key]'],
    ['sk-abcdefghijklmnopqrstuvwxyz0123', '[REDACTED:openai-key]'],
    [`token=${GITHUB}`, 'token=[REDACTED:github-token]'],
    ['github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz', '[REDACTED:github-token]'],
    ['gho_abcdefghijklmnopqrstuvwxyz0123456789', '[REDACTED:github-token]'],
    ['AKIAIOSFODNN7EXAMPLE', '[REDACTED:aws-access-key]'],
    ['xoxb-1234567890-abcdefghij', '[REDACTED:slack-token]'],
    ['AIzaSyD-1234567890abcdefghijklmnopqrstu', '[REDACTED:google-api-key]'],
    ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', '[REDACTED:jwt]'],
    ['Authorization: Bearer abc.def-ghi_jkl', 'Authorization: Bearer [REDACTED:bearer-token]'],
    [`before\n${PEM}\nafter`, 'before\n[REDACTED:private-key]\nafter'],
    ['-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA (cut off', '[REDACTED:private-key]'],
    ['postgres://admin:s3cr3t-pw@db.example.com:5432/app', 'postgres://admin:[REDACTED:url-password]@db.example.com:5432/app'],
    [`my key is ${ENV_SECRET}!`, 'my key is [REDACTED:env:MY_API_KEY]!'],
    ['REDIS_URL=redis://:Xx6C7ANKF40LGYQ@cache:6379/0', 'REDIS_URL=redis://:[REDACTED:url-password]@cache:6379/0'],
    ['use glpat-p_y0rY3APZyqIKPHts4I now', 'use [REDACTED:gitlab-token] now'],
    ['stripe.api_key = "sk_live_7r4MeJA9WmWKRnG7JhOi2kxh"', 'stripe.api_key = "[REDACTED:stripe-key]"'],
    ['https://hooks.slack.com/services/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', '[REDACTED:slack-webhook]'],
    ['https://api.telegram.org/bot5828495983:AA2UeYtucrrDu-_ZRZFKq4yIwYAcfVMdhwT/getMe', 'https://api.telegram.org/bot[REDACTED:telegram-bot-token]/getMe'],
    ['Authorization: Basic YWRtaW46MHB1V2dmQWsyWHVzWUhwUg==', 'Authorization: Basic [REDACTED:basic-auth]'],
    ['AccountName=demo;AccountKey=4lTsPluiKwoLoAiE7S9L97NTstApYRhKU9ZSfUb8xNzeFNZRWldAXOkj91mV==;', 'AccountName=demo;AccountKey=[REDACTED:azure-account-key];'],
    ['DB_PASSWORD=8LcdUPAW2KAr1A!', 'DB_PASSWORD=[REDACTED:secret-assignment]'],
    ['  password: "AAi4XiATO4k6"', '  password: "[REDACTED:secret-assignment]"'],
    ['{"line":"API_KEY=\\"36a15bd08b93b9a6\\""}', '{"line":"API_KEY=\\"[REDACTED:secret-assignment]\\""}'],
  ])('redacts %j', (input, expected) => {
    expect(redact(input)).toBe(expected);
  });

  it.each([
    'The task list: sk-ing is fun',
    'abc appears in text a lot',
    'see https://example.com/path?x=1 and user@example.com',
    'The word Bearer alone',
    'ghp_short',
    '/usr/bin:/bin',
    'const apiKey = process.env.OPENAI_API_KEY;',
    'tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")',
    'sort_key: created_at',
    'MAX_TOKENS=100000',
    'A basic understanding of TypeScript is assumed.',
    'api_key: ${{ secrets.API_KEY }}',
  ])('leaves %j alone', (text) => {
    expect(redact(text)).toBe(text);
  });

  it('keeps secrets off the disk: messages, streamed replies, tool calls, titles, config, history', async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: tmpHome(), env: { MY_API_KEY: ENV_SECRET } });
    const s = await sessions.create({ title: `title ${GITHUB}` });
    await s.append({ role: 'user', content: `here: ${ANTHROPIC} and ${GITHUB}\n${PEM}\nand ${ENV_SECRET}` });
    const reply = s.beginReply();
    // A key split across streamed chunks is still caught.
    let shown = '';
    for (const chunk of ['Sure, the key ', ANTHROPIC.slice(0, 12), ANTHROPIC.slice(12), ' is set. Bearer ', 'tok-123456789', '\n', PEM.slice(0, 40), PEM.slice(40), ' done']) {
      shown += await reply.push(chunk);
    }
    // What push resolves to, which a host shows, holds no secret either.
    expect(shown).toContain('Sure, the key ');
    for (const secret of [ANTHROPIC, 'tok-123456789', PEM_BODY]) expect(shown).not.toContain(secret);
    // What a crash would leave: the journal's deltas, read before the reply finishes.
    for (const secret of [ANTHROPIC, GITHUB, PEM_BODY, ENV_SECRET, 'tok-123456789']) {
      expect(filesContaining(home, secret), secret).toEqual([]);
    }
    await reply.finish();
    await s.append({
      role: 'assistant',
      content: 'calling a tool',
      toolCalls: [{ id: 't1', name: 'http', arguments: JSON.stringify({ headers: { authorization: `Bearer ${GITHUB}` }, key: ENV_SECRET }) }],
    });
    await s.append({ role: 'tool', content: `result ${ENV_SECRET}`, toolCallId: 't1' });
    await s.setTitle(`renamed ${ANTHROPIC}`);
    await s.setConfig('apiKey', { value: ENV_SECRET, source: 'flag' });
    await sessions.history.append(`/save ${GITHUB}`);
    await s.save({ title: `saved ${ENV_SECRET}` });
    await s.append({ role: 'user', content: `journal only ${GITHUB}` });
    await sessions.list();

    expect(allFiles(home).length).toBeGreaterThan(4);
    for (const secret of [ANTHROPIC, GITHUB, PEM_BODY, ENV_SECRET, 'tok-123456789']) {
      expect(filesContaining(home, secret), secret).toEqual([]);
    }
    expect(s.messages[1].content).toContain('[REDACTED:anthropic-key]');
    expect(s.messages[1].content).toContain('Bearer [REDACTED:bearer-token]');
    expect(s.title).toBe('saved [REDACTED:env:MY_API_KEY]');
    expect(await sessions.history.load()).toEqual(['/save [REDACTED:github-token]']);
    await s.close();
    for (const secret of [ANTHROPIC, GITHUB, PEM_BODY, ENV_SECRET]) {
      expect(filesContaining(home, secret), secret).toEqual([]);
    }
  });

  it('redacts secret-named variables of process.env by default', async () => {
    const home = tmpHome();
    const before = process.env.MY_API_KEY;
    process.env.MY_API_KEY = ENV_SECRET;
    onTestFinished(() => {
      if (before === undefined) delete process.env.MY_API_KEY;
      else process.env.MY_API_KEY = before;
    });
    const sessions = await openSessions({ home, cwd: tmpHome() });
    const s = await sessions.create();
    await s.append({ role: 'user', content: `export MY_API_KEY=${ENV_SECRET}` });
    await s.close();
    expect(s.messages[0].content).toBe('export MY_API_KEY=[REDACTED:env:MY_API_KEY]');
    expect(filesContaining(home, ENV_SECRET)).toEqual([]);
  });

  it('is switched off with redact: false', async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: tmpHome(), redact: false, env: { MY_API_KEY: ENV_SECRET } });
    // Titled: the message gives no automatic title, which would carry the text into the listing caches too.
    const s = await sessions.create({ title: 'unredacted' });
    await s.append({ role: 'user', content: `${GITHUB} ${ENV_SECRET}` });
    await s.close();
    // The session's own files only (its closing snapshot leaves the small journal as it is).
    const own = [join(s.where.files!.dir, 'journal.jsonl'), join(s.where.files!.dir, 'session.json')];
    expect(filesContaining(home, GITHUB).sort()).toEqual(own);
    expect(filesContaining(home, ENV_SECRET).sort()).toEqual(own);
  });
});
