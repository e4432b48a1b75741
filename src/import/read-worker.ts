/**
 * A reading thread of `sessions import` (readers.ts): reads and parses the files it is sent,
 * one answer per request, in order. Its own entry point (dist/src/import/read-worker.js; the
 * CLI's bundle has it beside cli.js).
 */
import { parentPort } from 'node:worker_threads';
import { readPeerFile, type TitleCache } from './read-peer.js';
import type { ReadAnswer, ReadRequest } from './read-protocol.js';
import { describeFailure } from './read-protocol.js';

const port = parentPort;
if (!port) throw new Error('read-worker.js runs on a worker thread (see readers.ts)');
const titles: TitleCache = new Map();
port.on('message', (request: ReadRequest) => {
  readPeerFile(request.tool, request.file, request.since, titles).then(
    (conversation) => port.postMessage({ n: request.n, conversation } satisfies ReadAnswer),
    (err: unknown) => port.postMessage({ n: request.n, failure: describeFailure(err) } satisfies ReadAnswer),
  );
});
