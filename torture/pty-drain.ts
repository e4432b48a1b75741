/**
 * The last output of a program in a pseudo-terminal, kept. node-pty waits only 200 ms after the
 * child's exit for its read stream to end, then destroys the stream (node-pty's
 * `DESTROY_SOCKET_TIMEOUT_MS`, against a macOS socket that never closes): on a loaded machine
 * whatever the child wrote last (`Saved …`, `Resume with: …`) may still be unread in the kernel
 * then (in the kernel, or read by the stream but not yet handed on), and is dropped. So before
 * the stream is destroyed, what is left is read here, through the same data listener.
 */
import { readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { IPty } from '@lydell/node-pty';

interface PtyInternals {
  _fd: number;
  _socket: { destroy(error?: Error): unknown; read(): string | Buffer | null };
}

export function drainBeforeDestroy(term: IPty, onData: (data: string) => void): void {
  const internals = term as unknown as Partial<PtyInternals>;
  const socket = internals._socket;
  const fd = internals._fd;
  if (!socket || typeof fd !== 'number') return; // another platform or version: as it was
  const destroy = socket.destroy.bind(socket);
  socket.destroy = (error?: Error) => {
    // First what the stream has read but not handed on yet (read() hands it to the 'data'
    // listeners, ours among them), then what the kernel still holds.
    while (socket.read() !== null);
    const decoder = new StringDecoder('utf8');
    const buffer = Buffer.alloc(64 * 1024);
    for (;;) {
      let n = 0;
      try {
        n = readSync(fd, buffer, 0, buffer.length, null);
      } catch {
        break; // EAGAIN (nothing left) or EIO (the terminal is gone): all is read
      }
      if (n <= 0) break;
      const text = decoder.write(buffer.subarray(0, n));
      if (text) onData(text);
    }
    const rest = decoder.end();
    if (rest) onData(rest);
    return destroy(error);
  };
}
