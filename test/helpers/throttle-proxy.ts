// A TCP proxy in front of the service that behaves like a weak mobile link: what the browser sends is
// paced to `uploadBytesPerSecond` on the wire, and `cut()` drops every connection as a lost signal does.
// (Chromium's network emulation paces when a request completes, not the bytes the server receives, so
// it cannot cut an upload half-way; this can.)
import net from 'node:net';

export interface ThrottleProxy {
  url: string;
  /** Bytes per second from the browser to the service; Infinity: no limit. */
  uploadBytesPerSecond: number;
  /** Drops every open connection and refuses new ones until `restore()`. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

const TICK_MS = 50;

export async function startThrottleProxy(
  target: string,
  uploadBytesPerSecond = Infinity,
): Promise<ThrottleProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  let down = false;
  const proxy: ThrottleProxy = {
    url: '',
    uploadBytesPerSecond,
    cut() {
      down = true;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    restore() {
      down = false;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const server = net.createServer((client) => {
    if (down) return client.destroy();
    const upstream = net.connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    upstream.pipe(client);

    // Browser → service: queued, and let through a slice per tick.
    const queue: Buffer[] = [];
    let ended = false;
    const timer = setInterval(() => {
      let budget = Number.isFinite(proxy.uploadBytesPerSecond)
        ? Math.max(1, Math.floor((proxy.uploadBytesPerSecond * TICK_MS) / 1000))
        : Infinity;
      while (budget > 0 && queue.length > 0) {
        const head = queue[0]!;
        const slice = head.subarray(0, Math.min(head.length, budget));
        upstream.write(slice);
        budget -= slice.length;
        if (slice.length === head.length) queue.shift();
        else queue[0] = head.subarray(slice.length);
      }
      // Back-pressure: the browser stops sending while much is waiting, as a real slow link makes it.
      if (queue.length === 0) {
        if (ended) upstream.end();
        else client.resume();
      }
    }, TICK_MS);
    client.on('close', () => clearInterval(timer));
    client.on('data', (chunk: Buffer) => {
      queue.push(chunk);
      if (queue.length > 16) client.pause();
    });
    client.on('end', () => (ended = true));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return proxy;
}
