import net from 'node:net';

/**
 * A TCP proxy between a client and the gateway that can count what the client
 * sends and cut connections: each new connection draws a byte budget (both
 * directions together) from `cutAfter`, and is destroyed on both sides once it
 * is spent — mid-header, mid-body or mid-answer, wherever that falls.
 */
export class CuttingProxy {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  /** Bytes the client sent towards the gateway, over every connection since the start. */
  clientBytes = 0;
  connections = 0;
  cuts = 0;

  constructor(
    private readonly target: { host: string; port: number },
    /** Budget of a new connection; Infinity never cuts. */
    public cutAfter: () => number = () => Infinity,
  ) {
    this.server = net.createServer((client) => this.relay(client));
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  private relay(client: net.Socket): void {
    this.connections += 1;
    const upstream = net.connect(this.target.port, this.target.host);
    this.sockets.add(client).add(upstream);
    let budget = this.cutAfter();
    const cut = () => {
      this.cuts += 1;
      client.destroy();
      upstream.destroy();
    };
    const forward = (from: net.Socket, to: net.Socket, countsAsClient: boolean) =>
      from.on('data', (chunk: Buffer) => {
        if (budget <= 0) return;
        const take = Math.min(chunk.length, budget);
        budget -= take;
        if (countsAsClient) this.clientBytes += take;
        const more = to.write(take === chunk.length ? chunk : chunk.subarray(0, take));
        if (budget <= 0) return cut();
        if (!more) {
          from.pause();
          to.once('drain', () => from.resume());
        }
      });
    forward(client, upstream, true);
    forward(upstream, client, false);
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
    const close = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
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
