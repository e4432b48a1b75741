// A readline agent on the `openai` SDK with one tool (the clock), kept as a chatkeep session with
// embed-readline.mjs's slash commands. The converters carry the conversation both ways, each
// reply and tool result stored before it is shown or sent. Run: npm install chatkeep openai, then
// OPENAI_API_KEY=… node examples/embed-openai-agent.mjs [SESSION-ID]
import readline from 'node:readline';
import OpenAI from 'openai';
import { fromOpenAIChat, messagesToSend, toOpenAIChat } from 'chatkeep';
import { attachReadline } from 'chatkeep/repl';

const openai = new OpenAI(), tools = [{ type: 'function', function: { name: 'clock', parameters: { type: 'object', properties: {} } } }];
const rl = readline.createInterface({ input: process.stdin, output: process.stdout, prompt: 'you> ' });
const chat = await attachReadline(rl, { home: process.env.CHATKEEP_HOME ?? `${process.env.HOME}/.chatkeep`, cwd: process.cwd(), output: process.stdout,
  host: { program: 'node examples/embed-openai-agent.mjs', resumeFlag: '' }, resume: process.argv[2], signals: process, provider: { name: 'openai', model: 'gpt-4.1-mini' } });
rl.prompt();
for await (const line of rl) {
  for (let turn = !(await chat.handle(line)) && (await chat.controller.append({ role: 'user', content: line })); turn; ) {
    const { session } = chat.controller; // the one /load, /fork or /reset left current
    const { message } = (await openai.chat.completions.create({ model: 'gpt-4.1-mini', tools, messages: toOpenAIChat(messagesToSend(session.messages, session.summary, { provider: 'openai' })) })).choices[0];
    const results = (message.tool_calls ?? []).map((call) => ({ role: 'tool', tool_call_id: call.id, content: new Date().toISOString() }));
    const [stored] = await chat.controller.append(...fromOpenAIChat([message, ...results]));
    if (!(turn = results.length > 0)) console.log(stored.content); // as stored (secrets redacted): what a crash keeps
  }
  rl.prompt();
}
process.exitCode = await chat.leave();
