/**
 * The worker thread that runs readline-sync's yes/no question (see prompter.ts). It is source text run
 * with `eval: true`, so that it works the same from tsc's output and from the esbuild bundle.
 *
 * readline-sync reads the terminal one byte at a time with `fs.readSync` and drops control
 * characters and keys other than y and n, so on its own Ctrl-C, Ctrl-D, Esc and `q` would
 * do nothing. The worker's `fs.readSync` (its own module instance: the main thread's is
 * untouched) reads what the terminal sent, turns those keys into the cancel key, drops other
 * escape sequences (arrows), and hands readline-sync the result byte by byte. On a worker the
 * terminal's descriptor is non-blocking, so an empty read waits a moment and tries again; a
 * terminal that went away (a hang-up) ends the worker with no answer, which means cancel.
 */

export const CONFIRM_WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { readlineSync, question } = workerData;
const cancelKey = 0x6e; /* n */
const pause = new Int32Array(new SharedArrayBuffer(4));
const pending = [];
const read = fs.readSync;

function keysOf(bytes) {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x1b && (bytes[i + 1] === 0x5b || bytes[i + 1] === 0x4f)) {
      // An escape sequence (an arrow, a function key): skip to its final byte.
      i += 2;
      while (i < bytes.length && !(bytes[i] >= 0x40 && bytes[i] <= 0x7e)) i++;
    } else if (b === 0x1b || b === 0x03 || b === 0x04 || b === 0x71 || b === 0x51) {
      pending.push(cancelKey);
    } else {
      pending.push(b);
    }
  }
}

fs.readSync = function (fd, buffer, offset, length) {
  while (pending.length === 0) {
    const chunk = Buffer.alloc(256);
    let n;
    try {
      n = read.call(fs, fd, chunk, 0, chunk.length, null);
    } catch (err) {
      if (err && err.code === 'EAGAIN') {
        Atomics.wait(pause, 0, 0, 15);
        continue;
      }
      process.exit(0);
    }
    if (n === 0) process.exit(0);
    keysOf(chunk.subarray(0, n));
  }
  buffer[offset] = pending.shift();
  return 1;
};

const rs = require(readlineSync);
const answer = rs.keyInYN(question) === true;
parentPort.postMessage(answer);
`;
