/**
 * Forking a LangGraph thread is forking its session (`chatkeep sessions fork ID`, `--fork ID`): the fork holds the
 * thread's checkpoints, the saver opens it by the fork's ID as a thread of its own, and a graph
 * run on it carries on from the parent's last checkpoint while the parent stays as it was; on
 * both stores.
 */
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import { describe, expect, inject, it } from 'vitest';
import { openSessions } from '../../src/index.js';
import { openCheckpointSaver } from '../../src/frameworks/langgraph/index.js';
import { runPiped } from '../helpers/pty.js';
import { createDatabase } from '../helpers/postgres.js';
import { tmpHome } from '../helpers/tmp-home.js';

/** A graph of one node that answers each question with how many messages it read. */
const graph = new StateGraph(MessagesAnnotation)
  .addNode('agent', (state) => ({ messages: [new AIMessage({ id: `ai-${state.messages.length}`, content: `Read ${state.messages.length}: ${String(state.messages.at(-1)!.content)}` })] }))
  .addEdge('__start__', 'agent')
  .addEdge('agent', '__end__');

const texts = (messages: unknown): string[] => (messages as BaseMessage[]).map((m) => `${m.getType()}: ${String(m.content)}`);

describe.each([
  ['the file store', 'file'],
  ['PostgreSQL', 'postgres'],
] as const)('a LangGraph thread forked (chatkeep sessions fork, --fork), on %s', (_name, kind) => {
  it('the fork is a thread under its own ID, carrying on from the parent’s last checkpoint; the parent is unchanged', async () => {
    const home = tmpHome();
    const store = kind === 'postgres' ? await createDatabase(inject('postgresAdminUrl')) : undefined;
    const open = () => openSessions({ home, cwd: home, ...(store ? { store } : {}) });
    const thread = (id: string) => ({ configurable: { thread_id: id } });

    const saver = await openCheckpointSaver(await open());
    const app = graph.compile({ checkpointer: saver });
    await app.invoke({ messages: [new HumanMessage({ id: 'h-1', content: 'Weather in Oslo?' })] }, thread('trip'));
    await app.invoke({ messages: [new HumanMessage({ id: 'h-2', content: 'And Bergen?' })] }, thread('trip'));
    await saver.close();
    const reader = await openCheckpointSaver(await open());
    const parentLast = (await reader.getTuple(thread('trip')))!;
    const parentList: string[] = [];
    for await (const t of reader.list(thread('trip'))) parentList.push(t.checkpoint.id);

    const fork = await runPiped(['sessions', 'fork', 'trip'], '', { home, cwd: home, env: store ? { CHATKEEP_STORE: store } : {} });
    expect(fork.code, fork.stderr).toBe(0);
    const forkId = /^Forked trip into (\S+) \(4 messages\)\. Resume with: chatkeep --session-id \1\n$/.exec(fork.stdout)?.[1];
    expect(forkId, fork.stdout).toBeDefined();

    // The saver reads the fork by its session ID as a thread: the parent's last checkpoint, its history.
    const copied = (await reader.getTuple(thread(forkId!)))!;
    expect(copied.checkpoint.id).toBe(parentLast.checkpoint.id);
    expect(copied.config.configurable?.thread_id).toBe(forkId);
    expect(texts(copied.checkpoint.channel_values.messages)).toEqual(texts(parentLast.checkpoint.channel_values.messages));
    const forkList: string[] = [];
    for await (const t of reader.list(thread(forkId!))) forkList.push(t.checkpoint.id);
    expect(forkList).toEqual(parentList);
    // A fork cut earlier holds no checkpoints: theirs hold messages it does not.
    const cut = await runPiped(['--fork', 'trip', '--at', '2'], '/quit\n', { home, cwd: home, env: store ? { CHATKEEP_STORE: store } : {} });
    const cutId = /Saved (\S+) \(2 messages\)/.exec(cut.stderr)?.[1];
    expect(cutId, cut.stderr).toBeDefined();
    expect(await reader.getTuple(thread(cutId!))).toBeUndefined();
    await reader.close();

    // The graph resumed on the fork carries on from there.
    const onFork = await openCheckpointSaver(await open());
    const state = await graph.compile({ checkpointer: onFork }).invoke({ messages: [new HumanMessage({ id: 'h-3', content: 'And Tromsø?' })] }, thread(forkId!));
    expect(texts(state.messages)).toEqual([
      'human: Weather in Oslo?', 'ai: Read 1: Weather in Oslo?', 'human: And Bergen?', 'ai: Read 3: And Bergen?', 'human: And Tromsø?', 'ai: Read 5: And Tromsø?',
    ]);
    await onFork.close();

    // The parent is as it was; each session holds its own conversation once.
    const after = await openCheckpointSaver(await open());
    expect((await after.getTuple(thread('trip')))!.checkpoint.id).toBe(parentLast.checkpoint.id);
    const again: string[] = [];
    for await (const t of after.list(thread('trip'))) again.push(t.checkpoint.id);
    expect(again).toEqual(parentList);
    await after.close();
    const sessions = await open();
    expect((await sessions.read('trip')).messages.map((m) => m.content)).toEqual(['Weather in Oslo?', 'Read 1: Weather in Oslo?', 'And Bergen?', 'Read 3: And Bergen?']);
    const forked = await sessions.read(forkId!);
    expect(forked.parentId).toBe('trip');
    expect(forked.messages.map((m) => m.content)).toEqual(['Weather in Oslo?', 'Read 1: Weather in Oslo?', 'And Bergen?', 'Read 3: And Bergen?', 'And Tromsø?', 'Read 5: And Tromsø?']);
  });
});
