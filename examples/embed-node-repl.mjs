// Node's own REPL, with every line kept in a chatkeep session.
// Run: node examples/embed-node-repl.mjs              (a new session)
//      node examples/embed-node-repl.mjs SESSION-ID   (resume one; a unique prefix works)
// In your own project: `import { openSessions } from 'chatkeep'` after `npm install chatkeep`.
import repl from 'node:repl';
import os from 'node:os';
import path from 'node:path';
import { openSessions, parseAutosaveSpec, startAutosave } from 'chatkeep';

const sessions = await openSessions({
  home: process.env.CHATKEEP_HOME ?? path.join(os.homedir(), '.chatkeep'),
  cwd: process.cwd(),
});
const id = process.argv[2];
const session = id ? await sessions.resume(id) : await sessions.create({ title: 'node repl' });
for (const notice of session.resumeReport.notices) console.error(`note: ${notice}`);
session.onWarning((message) => console.error(`warning: ${message}`));
const autosave = startAutosave(session, parseAutosaveSpec('5m'));
const count = (n) => `${n} message${n === 1 ? '' : 's'}`;
console.log(`session ${session.id} · ${count(session.messages.length)} · autosave ${autosave.description}`);

const server = repl.start({ prompt: 'embed> ' });
// Each line typed is journaled (durable once append resolves); appends queue in order.
server.on('line', (line) => {
  if (line.trim() && !line.startsWith('.')) {
    session.append({ role: 'user', content: line }).catch((err) => console.error(`not saved: ${err.message}`));
  }
});

server.defineCommand('save', {
  help: 'Save the session now: .save [title]',
  async action(title) {
    this.clearBufferedCommand();
    const saved = await session.save(title.trim() ? { title } : {});
    console.log(`Saved ${saved.id} (${count(saved.messageCount)}) to ${saved.location}`);
    this.displayPrompt();
  },
});

server.defineCommand('sessions', {
  help: "List this project's sessions: .sessions [text]",
  async action(text) {
    this.clearBufferedCommand();
    for (const row of await sessions.list({ query: text })) {
      const mark = row.id === session.id ? '*' : ' ';
      console.log(`${mark} ${row.id}  ${count(row.messageCount).padEnd(12)} ${row.status.padEnd(11)} ${row.title ?? ''}`);
    }
    this.displayPrompt();
  },
});

server.on('exit', async () => {
  await autosave.stop();
  const saved = await session.close();
  console.log(`Saved ${saved.id} (${count(saved.messageCount)}). Resume with:`);
  console.log(`node examples/embed-node-repl.mjs ${saved.id}`);
});
