/**
 * Bad input on the Hocuspocus endpoint, from a raw ws (not the provider): each closes only its
 * socket with a documented code (docs/realtime.md, "Hocuspocus protocol"), and the journal's
 * stored state is untouched; a socket that authorises nothing is closed.
 */
import * as encoding from 'lib0/encoding';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { blocks, serverSuite, type Client, type TestServer } from '../helpers/server.ts';
import { sleep } from '../helpers/wait.ts';
import { waitFor } from './helpers.ts';
import { collaborationUrl } from './hocuspocus-helpers.ts';

let server: TestServer;
let c: Client;
serverSuite({}, (s, client) => {
  server = s;
  c = client;
});

interface Raw {
  ws: WebSocket;
  received: Uint8Array[];
  closed?: { code: number; reason: string };
}
const raws: Raw[] = [];
afterEach(() => {
  for (const r of raws.splice(0)) r.ws.terminate();
});

async function raw(): Promise<Raw> {
  const r: Raw = { ws: new WebSocket(collaborationUrl(server.url)), received: [] };
  raws.push(r);
  r.ws.on('message', (d) => r.received.push(new Uint8Array(d as Buffer)));
  r.ws.on('close', (code, reason) => (r.closed = { code, reason: reason.toString() }));
  await new Promise((res, rej) => r.ws.once('open', res).once('error', rej));
  return r;
}

function frame(address: string, type: number, write: (e: encoding.Encoder) => void = () => {}): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarString(e, address);
  encoding.writeVarUint(e, type);
  write(e);
  return encoding.toUint8Array(e);
}
const auth = (address: string, token: string) =>
  frame(address, 2, (e) => {
    encoding.writeVarUint(e, 0);
    encoding.writeVarString(e, token);
  });
const step1 = (address: string) => frame(address, 0, (e) => syncProtocol.writeSyncStep1(e, new Y.Doc()));

describe('hocuspocus endpoint: hostile sockets', () => {
  it('closes a socket that sends a text frame (1003) or a frame that does not decode (1007)', async () => {
    const a = await raw();
    a.ws.send('hello');
    await waitFor(() => a.closed, 'closed');
    expect(a.closed!.code).toBe(1003);
    const b = await raw();
    b.ws.send(new Uint8Array([0xff, 0xff, 0xff]));
    await waitFor(() => b.closed, 'closed');
    expect(b.closed).toEqual({ code: 1007, reason: 'malformed message' });
  });

  it('never answers a journal that was not authorised, and sends nothing of it', async () => {
    const id = await c.importMarkdown('# Secret\n');
    const a = await raw();
    a.ws.send(step1(id));
    a.ws.send(frame(id, 3)); // query awareness
    await sleep(300);
    expect(a.received).toEqual([]);
    expect(a.closed).toBeUndefined();
  });

  it('closes a socket that queues too much while its journal is being authorised (1013)', async () => {
    const id = await c.importMarkdown('# Queue\n');
    const a = await raw();
    // The Auth and 300 messages in one TCP write (the socket corked): all arrive before the Auth is answered.
    const parts = [auth(id, c.key!), ...Array.from({ length: 300 }, () => frame(id, 3))];
    const tcp = (a.ws as unknown as { _socket: { cork(): void; uncork(): void } })._socket;
    tcp.cork();
    for (const p of parts) a.ws.send(p);
    tcp.uncork();
    await waitFor(() => a.closed, 'closed');
    expect(a.closed).toEqual({ code: 1013, reason: 'too many messages before authentication; reconnect later' });
  });

  it('closes a socket over the message rate (1013), the journal untouched', async () => {
    const id = await c.importMarkdown('# Flood\n');
    const before = await c.model(id);
    const a = await raw();
    a.ws.send(auth(id, c.key!));
    await waitFor(() => a.received.length > 0, 'authenticated');
    for (let i = 0; i < 700; i++) a.ws.send(frame(id, 3));
    await waitFor(() => a.closed, 'closed');
    expect(a.closed).toEqual({ code: 1013, reason: 'rate limit: more than 100 messages per second; reconnect later' });
    expect(blocks(await c.model(id))).toEqual(blocks(before));
  });

  it('closes a socket with no authorised journal after 10 s (4401)', { timeout: 20_000 }, async () => {
    const a = await raw();
    a.ws.send(auth('no-such-journal', c.key!));
    await waitFor(() => a.received.length > 0, 'denied');
    await waitFor(() => a.closed, 'closed', 15_000);
    expect(a.closed).toEqual({ code: 4401, reason: 'no document authorised; send an Auth message with a token' });
  });
});
