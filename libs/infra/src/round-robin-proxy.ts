import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { trustedPeers } from './trusted-peers';

export interface RoundRobinProxy {
  port: number;
  /** Stops taking connections and ends the open ones. */
  close(): Promise<void>;
}

export interface ProxyOptions {
  host: string;
  port: number;
  /** The gateways' origins, e.g. `http://127.0.0.1:41234`. */
  targets: string[];
  /**
   * `TRUSTED_PROXIES` of whoever runs the launcher: a client at one of these addresses is
   * itself a proxy, and its X-Forwarded-For / -Proto / -Host are passed on (the client's
   * address appended). Anyone else's are dropped: the proxy is then the edge.
   */
  trustedProxies?: string;
}

// Hop-by-hop headers (RFC 9110 §7.6.1) belong to one connection, not to the
// request: Node sets its own on each side. `expect` is answered here already.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'expect']);
const REPLAYABLE = new Set(['GET', 'HEAD', 'OPTIONS']);
// The gateway's bounds for reading a refused body (streamed-upload.ts).
const LINGER_MAX_BYTES = 64 * 1024 * 1024;
const LINGER_MAX_MS = 15_000;

/**
 * The public address of `npm run up` with several gateways: each request goes
 * to the next gateway in turn, as a Kubernetes Service spreads them. It adds
 * nothing of its own — no timeouts (the gateways' apply: a stalled upload is
 * closed by the gateway, and the client sees that close), Host kept, the
 * client's address in X-Forwarded-For (the launcher has the gateways trust
 * loopback, this proxy's address: their failed-attempt limits count per client).
 * A client's own X-Forwarded-* are passed on only from `trustedProxies`, else
 * dropped, so no client names another address or host. A gateway that refuses the
 * connection (dead, restarting) is passed over for the next one; a request is
 * replayed only when none of its body has been sent yet. An answer given before
 * the body is read (a refusal) is passed on at once, and the proxy then reads
 * and drops the rest of the body before closing, as the gateway does.
 */
export async function startRoundRobinProxy({ host, port, targets, trustedProxies }: ProxyOptions): Promise<RoundRobinProxy> {
  const isTrustedPeer = trustedPeers(trustedProxies);
  // Idle connections to a gateway are let go well before it closes them (65 s), so
  // a request never goes out on one the gateway is closing.
  const agents = targets.map(() => new http.Agent({ keepAlive: true, timeout: 30_000 }));
  let next = 0;

  const server = http.createServer((req, res) => {
    const first = next++ % targets.length;
    forward(req, res, first, 0);
  });
  // The gateways time requests; the proxy must never cut one earlier.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  server.timeout = 0;
  // An idle client connection is kept as long as a gateway keeps one (its main.ts): with
  // Node's 5 s, a client reusing it just then (fetch's own limit is 4 s, late under load)
  // met a closed socket — the ECONNRESET the end-to-end suite saw.
  server.keepAliveTimeout = 65_000;

  function forward(req: http.IncomingMessage, res: http.ServerResponse, index: number, tried: number): void {
    const target = new URL(targets[index % targets.length]!);
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
    const client = req.socket.remoteAddress ?? '';
    if (isTrustedPeer(client)) {
      headers['x-forwarded-for'] = req.headers['x-forwarded-for'] ? `${String(req.headers['x-forwarded-for'])}, ${client}` : client;
    } else {
      headers['x-forwarded-for'] = client;
      delete headers['x-forwarded-proto'];
      delete headers['x-forwarded-host'];
    }

    let bodyStarted = false;
    const upstream = http.request({
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers,
      agent: agents[index % targets.length],
    });
    // The body is read only once the gateway's connection is up, so a refused
    // connection leaves it unread and the request can go to the next gateway.
    upstream.on('socket', (socket) => {
      const send = () => {
        bodyStarted = true;
        req.pipe(upstream);
      };
      if (socket.connecting) socket.once('connect', send);
      else send();
    });
    let responded = false;
    upstream.on('response', (answer) => {
      responded = true;
      const out: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
      // An answer before the whole body (a refusal) ends the connection, as the gateway
      // itself does (tus routes): the client must not send its next request on it while
      // this body is still coming, and a gateway's own `Connection: close` is kept.
      if (!req.complete || /\bclose\b/i.test(String(answer.headers.connection ?? ''))) out.connection = 'close';
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out);
      answer.pipe(res, { end: false });
      answer.once('end', () => {
        if (req.complete) res.end();
        else lingerThenEnd(req, res, upstream);
      });
      // The gateway's answer broke off (it died mid-response): so does the client's.
      answer.once('close', () => {
        if (!answer.complete) res.destroy();
      });
    });
    upstream.on('error', () => {
      // A gateway that answered before reading the whole body (a refusal) may close
      // its end while the body is still coming: the answer stands, the rest of the body
      // is dropped. A break of the answer itself ends the client's connection (above).
      req.unpipe(upstream);
      if (responded || res.destroyed) {
        req.resume();
        return;
      }
      const replayable = !bodyStarted || (REPLAYABLE.has(req.method ?? '') && req.readableEnded);
      if (replayable && tried + 1 < targets.length) {
        forward(req, res, index + 1, tried + 1);
        return;
      }
      if (bodyStarted) {
        // The gateway went away mid-request: the client sees its connection end, as it would without the proxy.
        req.socket.destroy();
        return;
      }
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(JSON.stringify({ error: 'No gateway is reachable, try again shortly' }));
    });
    // The client went away: so does the gateway's request.
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
  }

  /**
   * The answer came before the whole body (a refusal): ending the response now would
   * close the connection while the client still sends, and many clients then report a
   * broken pipe instead of the answer. Like the gateway's lingering close
   * (streamed-upload.ts), the rest of the body is read and dropped, within bounds, and
   * the connection ends after it.
   */
  function lingerThenEnd(req: http.IncomingMessage, res: http.ServerResponse, upstream: http.ClientRequest): void {
    req.unpipe(upstream);
    upstream.destroy();
    let dropped = 0;
    const cut = () => {
      clearTimeout(timer);
      req.socket.destroy();
    };
    const timer = setTimeout(cut, LINGER_MAX_MS);
    timer.unref();
    req.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > LINGER_MAX_BYTES) cut();
    });
    req.once('end', () => {
      clearTimeout(timer);
      res.end();
    });
    req.resume();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const agent of agents) agent.destroy();
      }),
  };
}
