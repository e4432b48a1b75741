// A LangGraph host as a person writes one: a StateGraph of an agent node (a @langchain/openai chat
// model with a tool bound) and a tool node, compiled with chatkeep's checkpointer
// (`chatkeep/langgraph`, resolved through the package's own exports), durability `sync`. It prints
// `holding <pid>` once open, `checkpoint <id>` each time a put resolved (what chatkeep has
// acknowledged), `tool <city>` when the tool starts, and `final <text>` at the end.
// argv: home, cwd, the fake Responses server's base URL, `run` (a question; the tool never
// returns: the test kills the process there) or `resume` (carries on from the last checkpoint);
// then, optionally, the store's URL (PostgreSQL).
import { HumanMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';
import { openSessions } from 'chatkeep';
import { openCheckpointSaver } from 'chatkeep/langgraph';

const [home, cwd, baseURL, mode, store] = process.argv.slice(2);
const weather = tool(
  async ({ city }) => {
    console.log(`tool ${city}`);
    // Never returns in a `run`: the process stays alive (a timer) until the test kills it.
    if (mode === 'run') await new Promise(() => setInterval(() => undefined, 1000));
    return `Sunny in ${city}`;
  },
  { name: 'get_weather', description: 'The weather in a city', schema: z.object({ city: z.string() }) },
);
const model = new ChatOpenAI({ model: 'gpt-fake', apiKey: 'sk-test', useResponsesApi: true, configuration: { baseURL } }).bindTools([weather]);
const graph = new StateGraph(MessagesAnnotation)
  .addNode('agent', async (state) => ({ messages: [await model.invoke(state.messages)] }))
  .addNode('tools', new ToolNode([weather]))
  .addEdge(START, 'agent')
  .addConditionalEdges('agent', toolsCondition, ['tools', END])
  .addEdge('tools', 'agent');

const checkpointer = await openCheckpointSaver(await openSessions({ home, cwd, ...(store ? { store } : {}) }));
const put = checkpointer.put.bind(checkpointer);
checkpointer.put = async (...args) => {
  const config = await put(...args);
  console.log(`checkpoint ${config.configurable.checkpoint_id}`);
  return config;
};
const app = graph.compile({ checkpointer });
const config = { configurable: { thread_id: 'trip-oslo' }, durability: 'sync' };
console.log(`holding ${process.pid}`);
const state = await app.invoke(mode === 'run' ? { messages: [new HumanMessage('Weather in Oslo?')] } : null, config);
console.log(`final ${state.messages.at(-1).content.map?.((b) => b.text).join('') ?? state.messages.at(-1).content}`);
await checkpointer.close();
