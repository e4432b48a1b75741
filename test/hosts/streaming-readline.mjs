// The readline example (examples/embed-readline.mjs) with its answer streamed, for the hosts
// torture part: the reply goes into the session through `beginReply()` and `push()`, and each
// piece is printed as push() says it is stored, so what is on screen is journaled.
// The answer is the line shouted, then words w0…w29, one every HOST_WORD_DELAY_MS (default 10).
import readline from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { attachReadline } from 'chatkeep/repl';

const delay = Number(process.env.HOST_WORD_DELAY_MS ?? '10');
const rl = readline.createInterface({ input: process.stdin, output: process.stdout, prompt: 'you> ' });
const chat = await attachReadline(rl, {
  home: process.env.CHATKEEP_HOME, cwd: process.cwd(), output: process.stdout,
  host: { program: 'node test/hosts/streaming-readline.mjs', resumeFlag: '' }, resume: process.argv[2], signals: process,
});
rl.prompt();
for await (const line of rl) {
  if (!(await chat.handle(line))) {
    await chat.controller.append({ role: 'user', content: line });
    const reply = chat.controller.session.beginReply();
    let shown = 0;
    for (const piece of [`${line.toUpperCase()}:`, ...Array.from({ length: 30 }, (_, i) => ` w${i}`)]) {
      const stored = await reply.push(piece);
      process.stdout.write(stored);
      shown += stored.length;
      await sleep(delay);
    }
    const { content } = await reply.finish();
    process.stdout.write(`${content.slice(shown)}\n`);
  }
  rl.prompt();
}
process.exitCode = await chat.leave();
