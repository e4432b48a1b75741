import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { httpFetch } from '../../../src/providers/http-fetch.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A server answering with `handle`; resolves to its origin. */
async function serve(handle: (req: IncomingMessage, body: string, res: ServerResponse) => void): Promise<string> {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (part: string) => (body += part));
    req.on('end', () => handle(req, body, res));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe('httpFetch: fetch over node:http for the SDKs', () => {
  it('sends the method, headers and body, and answers with a standard Response', async () => {
    let seen: { method?: string; type?: string; key?: string; body?: string } = {};
    const origin = await serve((req, body, res) => {
      seen = { method: req.method, type: req.headers['content-type'], key: req.headers['x-api-key'] as string, body };
      res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-request-id': 'req_1' });
      res.end('{"ok":true}');
    });
    const response = await httpFetch(`${origin}/v1/messages`, {
      method: 'POST',
      headers: new Headers({ 'content-type': 'application/json', 'x-api-key': 'k' }),
      body: '{"hello":"world"}',
    });
    expect(seen).toEqual({ method: 'POST', type: 'application/json', key: 'k', body: '{"hello":"world"}' });
    expect(response).toBeInstanceOf(Response);
    expect([response.status, response.statusText, response.ok]).toEqual([201, 'Made', true]);
    expect(response.headers.get('x-request-id')).toBe('req_1');
    expect(await response.json()).toEqual({ ok: true });
  });

  it('hands the body over as it streams, before the server has ended it', async () => {
    let finish: (() => void) | undefined;
    const origin = await serve((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      finish = () => res.end('data: two\n\n');
    });
    const response = await httpFetch(origin, { method: 'POST', body: 'x' });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
    finish!();
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toBe('data: two\n\n');
  });

  it('rejects with an AbortError when aborted before the answer, and the reader fails when aborted during the body', async () => {
    const origin = await serve((req, _body, res) => {
      if (req.url === '/slow') return; // never answers
      res.writeHead(200);
      res.write('part');
    });
    const before = new AbortController();
    const pending = httpFetch(`${origin}/slow`, { signal: before.signal });
    setTimeout(() => before.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });

    const during = new AbortController();
    const response = await httpFetch(`${origin}/body`, { signal: during.signal });
    const reader = response.body!.getReader();
    await reader.read();
    during.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });

    const already = new AbortController();
    already.abort();
    await expect(httpFetch(`${origin}/body`, { signal: already.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('fails as fetch does when nothing listens: a TypeError whose cause is the network error', async () => {
    const origin = await serve(() => undefined);
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    const failed = await httpFetch(origin).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(TypeError);
    expect((failed as TypeError).message).toBe('fetch failed');
    expect(((failed as TypeError).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('decodes a compressed body, and gives no body for 204', async () => {
    const origin = await serve((req, _body, res) => {
      if (req.url === '/none') {
        res.writeHead(204);
        return res.end();
      }
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(gzipSync('unpacked'));
    });
    expect(await (await httpFetch(`${origin}/gz`)).text()).toBe('unpacked');
    const none = await httpFetch(`${origin}/none`);
    expect([none.status, none.body]).toEqual([204, null]);
  });

  it('follows redirects as fetch does, and never takes credentials to another origin', async () => {
    const seen: string[] = [];
    const other = createServer((req, res) => {
      seen.push(`other ${req.method} ${req.url} key=${req.headers['x-api-key'] ?? '-'} auth=${req.headers.authorization ?? '-'}`);
      res.end('elsewhere');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const elsewhere = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      const origin = await serve((req, body, res) => {
        seen.push(`${req.method} ${req.url} body=${body || '-'} key=${req.headers['x-api-key'] ?? '-'}`);
        const to = { '/keep': '/kept', '/see-other': '/seen', '/away': `${elsewhere}/there` }[req.url!];
        if (to) {
          res.writeHead(req.url === '/keep' ? 307 : req.url === '/see-other' ? 303 : 302, { location: to });
          return res.end();
        }
        res.end(`at ${req.url}`);
      });
      const init = { method: 'POST', headers: { 'x-api-key': 'k', authorization: 'Bearer k', 'content-type': 'text/plain' }, body: 'data' };
      expect(await (await httpFetch(`${origin}/keep`, init)).text()).toBe('at /kept');
      expect(await (await httpFetch(`${origin}/see-other`, init)).text()).toBe('at /seen');
      expect(await (await httpFetch(`${origin}/away`, init)).text()).toBe('elsewhere');
      const manual = await httpFetch(`${origin}/keep`, { ...init, redirect: 'manual' });
      expect([manual.status, manual.headers.get('location')]).toEqual([307, '/kept']);
      expect(seen).toEqual([
        'POST /keep body=data key=k',
        'POST /kept body=data key=k',
        'POST /see-other body=data key=k',
        'GET /seen body=- key=k',
        'POST /away body=data key=k',
        'other GET /there key=- auth=-',
        'POST /keep body=data key=k',
      ]);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('leaves a streamed request body to the global fetch', async () => {
    const origin = await serve((_req, body, res) => res.end(`got ${body}`));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('streamed'));
        controller.close();
      },
    });
    const response = await httpFetch(origin, { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(await response.text()).toBe('got streamed');
  });
});
