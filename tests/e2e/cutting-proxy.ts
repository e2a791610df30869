import net from 'node:net';

/** The start of a request as the proxy sees it on the wire. */
export interface SeenRequest {
  method: string;
  path: string;
  /** Bytes of the request line and headers. */
  headBytes: number;
  contentLength: number;
  /** The request line and headers, as text. */
  head: string;
}

const REQUEST_LINE = /^(GET|HEAD|POST|PATCH|PUT|DELETE|OPTIONS) (\S+) HTTP\/1\.[01]\r\n/;

/**
 * A TCP proxy between a client and the gateway that counts what the client
 * sends and cuts connections. Each request seen on a connection draws a byte
 * budget (both directions together, from that request's first byte) from
 * `cutAfter`; once it is spent both sides are destroyed — mid-header, mid-body
 * or mid-answer, wherever that falls. Each cut is recorded with the request it hit.
 */
export class CuttingProxy {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  /** Bytes the client sent towards the gateway, over every connection since the start. */
  clientBytes = 0;
  connections = 0;
  /** `METHOD /path` of the request each cut interrupted. */
  readonly cutRequests: string[] = [];

  constructor(
    private readonly target: { host: string; port: number },
    /** Budget of a new request; Infinity never cuts. */
    public cutAfter: (request: SeenRequest) => number = () => Infinity,
  ) {
    this.server = net.createServer((client) => this.relay(client));
  }

  get cuts(): number {
    return this.cutRequests.length;
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  private relay(client: net.Socket): void {
    this.connections += 1;
    const upstream = net.connect(this.target.port, this.target.host);
    this.sockets.add(client).add(upstream);
    let budget = Infinity;
    let current = '';
    let cut = false;
    const close = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    const forward = (from: net.Socket, to: net.Socket, fromClient: boolean) =>
      from.on('data', (chunk: Buffer) => {
        if (cut) return;
        if (fromClient) {
          const head = chunk.subarray(0, 8192).toString('latin1');
          const line = REQUEST_LINE.exec(head);
          if (line) {
            const end = head.indexOf('\r\n\r\n');
            const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
            current = `${line[1]} ${line[2]!.split('?')[0]}`;
            const headBytes = end >= 0 ? end + 4 : head.length;
            budget = this.cutAfter({ method: line[1]!, path: line[2]!, headBytes, contentLength: length ? Number(length[1]) : 0, head: head.slice(0, headBytes) });
          }
        }
        const take = Math.min(chunk.length, budget);
        budget -= take;
        if (fromClient) this.clientBytes += take;
        const more = to.write(take === chunk.length ? chunk : chunk.subarray(0, take));
        if (budget <= 0) {
          cut = true;
          this.cutRequests.push(current);
          close();
          return;
        }
        if (!more) {
          from.pause();
          to.once('drain', () => from.resume());
        }
      });
    forward(client, upstream, true);
    forward(upstream, client, false);
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
    for (const s of [client, upstream]) {
      s.on('error', close);
      s.on('close', close);
    }
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
