// A LangChain host as a person writes one: a chat model of @langchain/openai with a tool bound,
// its history kept by chatkeep (`chatkeep/langchain`, resolved through the package's own
// exports), RunnableWithMessageHistory taking one human message per line of stdin. It prints
// `session <id>` once open, `stored <messages>` each time the history's addMessages resolved
// (what chatkeep has acknowledged as durable, in LangChain's stored form), and `done` after
// each turn. argv: home, cwd, the fake Responses server's base URL.
import { createInterface } from 'node:readline';
import { HumanMessage } from '@langchain/core/messages';
import { RunnableWithMessageHistory } from '@langchain/core/runnables';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';
import { openSessions } from 'chatkeep';
import { ChatkeepChatMessageHistory, openChatHistory } from 'chatkeep/langchain';

const [home, cwd, baseURL] = process.argv.slice(2);
const weather = tool(async ({ city }) => `Sunny in ${city}`, { name: 'get_weather', description: 'The weather in a city', schema: z.object({ city: z.string() }) });
const model = new ChatOpenAI({ model: 'gpt-fake', apiKey: 'sk-test', useResponsesApi: true, configuration: { baseURL } }).bindTools([weather]);

class Logged extends ChatkeepChatMessageHistory {
  async addMessages(messages) {
    await super.addMessages(messages);
    console.log(`stored ${JSON.stringify(messages.map((m) => m.toDict()))}`);
  }
}
const history = new Logged((await openChatHistory(await openSessions({ home, cwd }))).session);
console.log(`session ${history.session.id}`);
const chain = new RunnableWithMessageHistory({ runnable: model, getMessageHistory: async () => history });
for await (const line of createInterface({ input: process.stdin })) {
  await chain.invoke([new HumanMessage(line)], { configurable: { sessionId: history.session.id } });
  console.log('done');
}
await history.close();
