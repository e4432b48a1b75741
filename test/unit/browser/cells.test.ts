import { PassThrough } from 'node:stream';
import * as core from '@inquirer/core';
import { describe, expect, it } from 'vitest';
import { useCells } from '../../../src/browser/cells.js';

/**
 * A prompt on the cells, on in-memory streams: `a` sets two states in one key press, `b` sets
 * one to the value it has, `r` changes a ref and asks for a repaint, Enter answers.
 */
const prompt = core.createPrompt<string, { start: number }>((config, done) => {
  const { state, ref, repaint } = useCells(core);
  const [count, setCount] = state(() => config.start);
  const [word, setWord] = state('none');
  const seen = ref(0);
  core.useKeypress((key) => {
    if (key.name === 'a') {
      setCount((n) => n + 1);
      setWord('set');
    } else if (key.name === 'b') setWord(word);
    else if (key.name === 'r') {
      seen.current++;
      repaint();
    } else if (core.isEnterKey(key)) done(`${count} ${word} ${seen.current}`);
  });
  return `count=${count} word=${word} seen=${seen.current}`;
});

async function run(keys: string[]): Promise<{ answer: string; frames: string[] }> {
  const input = Object.assign(new PassThrough(), { isTTY: false });
  const output = Object.assign(new PassThrough(), { columns: 80, rows: 24, isTTY: false });
  const frames: string[] = [];
  output.on('data', (chunk: Buffer) => {
    const text = chunk.toString().match(/count=\d+ word=\w+ seen=\d+/)?.[0];
    if (text) frames.push(text);
  });
  const answer = prompt({ start: 5 }, { input: input as unknown as NodeJS.ReadStream, output: output as unknown as NodeJS.WriteStream });
  for (const key of keys) {
    input.write(key);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { answer: await answer, frames };
}

describe('browser cells', () => {
  it('keep state and refs across renders, and paint once for the sets of one key press', async () => {
    const { answer, frames } = await run(['a', 'a', 'r', '\r']);
    expect(answer).toBe('7 set 1');
    expect(frames).toEqual(['count=5 word=none seen=0', 'count=6 word=set seen=0', 'count=7 word=set seen=0', 'count=7 word=set seen=1']);
  });

  it('paint nothing when a state is set to the value it has', async () => {
    const { answer, frames } = await run(['b', 'b', '\r']);
    expect(answer).toBe('5 none 0');
    expect(frames).toEqual(['count=5 word=none seen=0']);
  });
});
