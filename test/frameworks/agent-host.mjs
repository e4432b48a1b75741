// An agent host as a person writes one: an Agents SDK agent with a tool, its session kept by
// chatkeep (`chatkeep/openai-agents`, resolved through the package's own exports), one turn per
// line of stdin. It prints `session <id>` once open, `stored <items>` each time the runner's
// addItems resolved (what chatkeep has acknowledged as durable), `tool <args>` when the tool
// runs (a city named `nowhere` never answers), and `done <output>` after each turn.
// argv: home, cwd, the fake Responses server's base URL, `stream` or `plain` (how to run), and a
// session ID to resume (optional).
import { createInterface } from 'node:readline';
import { Agent, OpenAIProvider, run, setTracingDisabled, tool } from '@openai/agents';
import { z } from 'zod';
import { openSessions } from 'chatkeep';
import { ChatkeepAgentSession, openAgentSession } from 'chatkeep/openai-agents';

const [home, cwd, baseURL, how, id] = process.argv.slice(2);
setTracingDisabled(true);
const model = await new OpenAIProvider({ apiKey: 'sk-test', baseURL, useResponses: true }).getModel('gpt-fake');
const weather = tool({
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => {
    console.log(`tool ${JSON.stringify({ city })}`);
    if (city === 'nowhere') await new Promise(() => {});
    return `Sunny in ${city}`;
  },
});
const agent = new Agent({ name: 'forecaster', instructions: 'Answer about the weather.', model, tools: [weather] });

class Logged extends ChatkeepAgentSession {
  async addItems(items) {
    await super.addItems(items);
    console.log(`stored ${JSON.stringify(items)}`);
  }
}
const sessions = await openSessions({ home, cwd });
const session = new Logged((await openAgentSession(sessions, id ? { id } : {})).session);
console.log(`session ${await session.getSessionId()}`);
for await (const line of createInterface({ input: process.stdin })) {
  const result = how === 'stream' ? await run(agent, line, { session, stream: true }) : await run(agent, line, { session });
  if (how === 'stream') await result.completed;
  console.log(`done ${JSON.stringify(result.finalOutput)}`);
}
await session.close();
