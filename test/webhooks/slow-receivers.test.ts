/**
 * Receivers that hold a delivery (issue 26, "one tenant against the others"), as tiny real HTTP
 * servers on loopback: one that answers 200 and trickles its body, one that trickles its status
 * line and headers a byte at a time (each byte resets a socket's idle timeout), one that never
 * answers. Each attempt ends within WEBHOOK_TIMEOUT_MS whatever the receiver does, and one
 * organization's slow receivers never keep another organization's webhook waiting. No wall-clock
 * bound: every check is an order of events (delivered while the trickle still runs, the
 * connection closed by the service before the trickle ended, B's delivery before any of A's
 * held connections was let go).
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { serverSuite, type Client, type TestServer } from '../helpers/server.ts';
import { createSet, until } from '../practice-api/helpers.ts';
import { startReceiver, type Receiver } from './receiver.ts';

interface Held {
  url: string;
  /** Connections accepted, and those the service closed (while this receiver was still sending). */
  opened: number;
  closedByClient: number;
  /** Connections whose trickle ran to its end (the receiver had nothing more to send). */
  finished: number;
  /** webhook-id of each request whose headers arrived */
  ids: string[];
  close(): Promise<void>;
}

/**
 * A receiver on a raw socket: reads the request, sends `head` at once, then `answer` one byte
 * every `everyMs` (when both are empty it sends nothing and keeps the connection open).
 */
async function heldReceiver(head: string, answer: string, everyMs = 100): Promise<Held> {
  const sockets = new Set<net.Socket>();
  const h: Held = { url: '', opened: 0, closedByClient: 0, finished: 0, ids: [], close: async () => {} };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    h.opened++;
    let seen = '';
    let timer: NodeJS.Timeout | undefined;
    let sent = 0;
    socket.on('data', (chunk) => {
      seen += chunk.toString('latin1');
      if (timer || !seen.includes('\r\n\r\n')) return;
      const id = /webhook-id: (\S+)/i.exec(seen)?.[1];
      if (id) h.ids.push(id);
      if (head) socket.write(head);
      if (answer.length === 0) return;
      timer = setInterval(() => {
        if (sent >= answer.length) {
          clearInterval(timer);
          h.finished++;
          return;
        }
        socket.write(answer[sent++]!);
      }, everyMs);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
      if (sent < answer.length || answer.length === 0) h.closedByClient++;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  h.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  h.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return h;
}

const helds: Held[] = [];
const receivers: Receiver[] = [];
afterAll(async () => {
  for (const h of helds) await h.close();
  for (const r of receivers) await r.close();
});
async function held(head: string, answer: string, everyMs?: number): Promise<Held> {
  const h = await heldReceiver(head, answer, everyMs);
  helds.push(h);
  return h;
}

/** 200 with its headers at once, then a body long enough to trickle for about a minute at 1 byte / 100 ms. */
const BODY_HEAD = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 600\r\n\r\n';
const TRICKLED_BODY = 'x'.repeat(600);
/** The status line and headers themselves trickled (and never finished within a minute). */
const TRICKLED_HEADERS = `HTTP/1.1 200 OK\r\nX-Slow: ${'y'.repeat(600)}\r\n\r\n`;

describe('a whole-delivery timeout', () => {
  let server: TestServer;
  let client: Client;
  serverSuite({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '1500', WEBHOOK_RETRY_BASE_MS: '60000' } }, (s, c) => {
    server = s;
    client = c;
  });

  it('a 200 whose body trickles is delivered at its status, without waiting for the body', async () => {
    const rx = await held(BODY_HEAD, TRICKLED_BODY);
    await createSet(client, { set_description: 'fractions', count: 1, webhook_url: `${rx.url}/hook` });
    const [id] = await until(() => rx.ids.length >= 1 && rx.ids, 'the delivery to reach the receiver');
    const msg = await until(async () => {
      const m = await server.svc.ctx.webhooks.message(id!);
      return m?.state === 'delivered' && m;
    }, 'the message to be recorded as delivered');
    expect(msg.last_status).toBe(200);
    expect(rx.finished, 'delivered while the receiver was still trickling its body').toBe(0);
  }, 60_000);

  it('a receiver trickling its status line and headers is cut off at the timeout: a failed attempt, retried later', async () => {
    const rx = await held('', TRICKLED_HEADERS);
    await createSet(client, { set_description: 'fractions', count: 1, webhook_url: `${rx.url}/hook` });
    const [id] = await until(() => rx.ids.length >= 1 && rx.ids, 'the delivery to reach the receiver');
    await until(() => rx.closedByClient >= 1, 'the service to close the connection');
    expect(rx.finished, 'closed while the receiver still had bytes to send').toBe(0);
    const msg = await until(async () => {
      const m = await server.svc.ctx.webhooks.message(id!);
      return m?.last_error ? m : undefined;
    }, 'the attempt to be recorded');
    expect(msg.state).toBe('pending');
    expect(msg.attempts).toBe(1);
    expect(msg.last_error).toMatch(/did not complete within 1500 ms/);
  }, 60_000);
});

describe('deliveries of organizations in turns', () => {
  let server: TestServer;
  let a: Client;
  serverSuite({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '60000' } }, (s, c) => {
    server = s;
    a = c;
  });

  it("another organization's webhook is delivered while one organization's receivers hold their connections", async () => {
    // Organization A: 8 events to a receiver that never answers (each attempt is held for the whole timeout).
    const slow = await held('', '');
    const setsA: string[] = [];
    for (let i = 0; i < 8; i++) setsA.push(await createSet(a, { set_description: 'fractions', count: 1, webhook_url: `${slow.url}/a${i}` }));
    await until(async () => {
      const rows = await server.svc.ctx.engine.all<{ n: number }>(`SELECT COUNT(*) AS n FROM webhook_outbox WHERE org_id = ?`, [a.orgId]);
      return Number(rows[0]!.n) === 8;
    }, "all of A's events to be queued");
    await until(() => slow.opened >= 2, "A's deliveries to hold connections");
    // Organization B: one event to a receiver that answers at once.
    const b = await server.newClient();
    const fast = await startReceiver();
    receivers.push(fast);
    await createSet(b, { set_description: 'fractions', count: 1, webhook_url: `${fast.url}/b` });
    await until(() => fast.received.length >= 1, "B's delivery", 50_000);
    expect(slow.closedByClient, "B's webhook arrived before any of A's held attempts was let go").toBe(0);
    // A's organization never holds more than its share of the delivery slots.
    expect(slow.opened).toBeLessThanOrEqual(2);
  }, 90_000);
});
