/** A webhook receiver on loopback that records every request and answers with a chosen status. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  path: string;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Status for the n-th request (1-based). */
  status: (n: number) => number;
  close(): Promise<void>;
}

export async function startReceiver(status: (n: number) => number = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const r: Receiver = { url: '', port: 0, received, status, close: async () => {} };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body, path: req.url ?? '' });
      res.writeHead(r.status(received.length), { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  r.port = (server.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${r.port}`;
  r.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return r;
}
