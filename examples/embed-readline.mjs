// A readline loop (its "assistant" shouts the line back) kept as a chatkeep session: /sessions
// /save /load /reset /fork /rewind /tree /title /status /export /help /quit; when the loop ends (/quit, Ctrl-D,
// SIGTERM) leave() saves it and prints the way back. Run: node examples/embed-readline.mjs [SESSION-ID]
import readline from 'node:readline';
import os from 'node:os';
import { attachReadline } from 'chatkeep/repl';

const rl = readline.createInterface({ input: process.stdin, output: process.stdout, prompt: 'you> ' });
const chat = await attachReadline(rl, {
  home: process.env.CHATKEEP_HOME ?? `${os.homedir()}/.chatkeep`, cwd: process.cwd(), output: process.stdout,
  host: { program: 'node examples/embed-readline.mjs', resumeFlag: '' }, resume: process.argv[2], signals: process,
});
rl.prompt();
for await (const line of rl) {
  if (!(await chat.handle(line))) {
    // Stored first, and what was stored (secrets redacted) is what is shown: it survives a crash.
    console.log(await chat.record(line, `${line.toUpperCase()}!`));
  }
  rl.prompt();
}
process.exitCode = await chat.leave();
