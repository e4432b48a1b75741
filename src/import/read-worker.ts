/**
 * A reading thread of `sessions import` (readers.ts): reads and parses the files it is sent,
 * one answer per request, in order. Its own entry point (dist/src/import/read-worker.js; the
 * CLI's bundle has it beside cli.cjs).
 */
import { parentPort } from 'node:worker_threads';
import { readPeerFile, type TitleCache } from './read-peer.js';
import type { ReadAnswer, ReadRequest } from './read-protocol.js';
import { describeFailure } from './read-protocol.js';

const port = parentPort;
if (!port) throw new Error('read-worker.js runs on a worker thread (see readers.ts)');
const titles: TitleCache = new Map();
port.on('message', (request: ReadRequest) => {
  let answer: ReadAnswer;
  try {
    answer = { n: request.n, conversation: readPeerFile(request.tool, request.file, request.since, titles) };
  } catch (err) {
    answer = { n: request.n, failure: describeFailure(err) };
  }
  port.postMessage(answer);
});
