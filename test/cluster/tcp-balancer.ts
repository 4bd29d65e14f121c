/**
 * A small TCP load balancer for the topology test (what haproxy or nginx do
 * in docker-compose.yml): each client connection goes to the next backend
 * round-robin; a backend that refuses the connection (killed) is skipped.
 * Bytes are piped both ways untouched, so WebSocket upgrades pass through.
 */
import net from 'node:net';

export class TcpBalancer {
  /** The backend index each accepted connection was sent to, in order. */
  readonly routed: number[] = [];
  private next = 0;
  private readonly sockets = new Set<net.Socket>();
  private constructor(
    private readonly server: net.Server,
    private readonly backends: () => number[],
  ) {}

  /** Listens on 127.0.0.1 (free port) in front of the ports `backends()` returns at each connection. */
  static async start(backends: () => number[]): Promise<TcpBalancer> {
    const server = net.createServer();
    const lb = new TcpBalancer(server, backends);
    server.on('connection', (client) => lb.route(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return lb;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  private track(s: net.Socket): void {
    this.sockets.add(s);
    s.once('close', () => this.sockets.delete(s));
  }

  private route(client: net.Socket): void {
    this.track(client);
    client.pause();
    const ports = this.backends();
    const attempt = (tries: number): void => {
      if (tries >= ports.length) {
        client.destroy();
        return;
      }
      const index = this.next++ % ports.length;
      const upstream = net.connect(ports[index]!, '127.0.0.1');
      upstream.once('error', () => {
        upstream.destroy();
        if (!client.destroyed) attempt(tries + 1);
      });
      upstream.once('connect', () => {
        this.track(upstream);
        this.routed.push(index);
        upstream.removeAllListeners('error');
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
        upstream.once('close', () => client.destroy());
        client.once('close', () => upstream.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
    };
    attempt(0);
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
