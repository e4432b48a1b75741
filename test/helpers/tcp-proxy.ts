/**
 * A TCP proxy in front of the test server, to cut the network the way a real one fails: `cut()`
 * drops the client side of every connection while the server side stays open (the server still
 * counts those connections alive), as a laptop dropping off Wi-Fi does.
 */
import { connect, createServer } from 'node:net';
import type { Socket } from 'node:net';

export interface TcpProxy {
  /** `url` with its host and port replaced by the proxy's. */
  url: string;
  /** Destroys the client sides; the server sides stay open, silent. */
  cut(): void;
  /** Stops forwarding in both directions, every socket left open: a network that went silent. */
  freeze(): void;
  close(): Promise<void>;
}

export async function startProxy(url: string): Promise<TcpProxy> {
  const target = new URL(url);
  const pairs: Array<{ client: Socket; server: Socket }> = [];
  const proxy = createServer((client) => {
    const server = connect(Number(target.port), target.hostname);
    client.on('error', () => undefined);
    server.on('error', () => client.destroy());
    client.pipe(server);
    server.pipe(client);
    pairs.push({ client, server });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const through = new URL(url);
  through.hostname = '127.0.0.1';
  through.port = String((proxy.address() as { port: number }).port);
  return {
    url: through.toString(),
    cut() {
      for (const { client, server } of pairs) {
        client.unpipe(server);
        server.unpipe(client);
        client.destroy();
      }
    },
    freeze() {
      for (const { client, server } of pairs) {
        client.unpipe(server);
        server.unpipe(client);
        client.pause();
        server.pause();
      }
    },
    async close() {
      for (const { client, server } of pairs.splice(0)) {
        client.destroy();
        server.destroy();
      }
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
