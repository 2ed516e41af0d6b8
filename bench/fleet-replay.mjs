// A fleet of many clusters on this machine (issue 45 item 4): each cluster a port of this process.
// Most answer like a real node: the first time a request (method and URL) comes, it is sent to a
// real node and its answer and how long it took are kept; from then on every cluster replays that
// answer after that same latency. A share never answers (accepts, reads, stays silent) and a share
// refuses the connection (nothing listens on its port). It counts the connections open at once.
import http from 'node:http';
import net from 'node:net';

/** `silent` and `refusing` are shares of `clusters` (0.1 = 10%); the first clusters answer. */
export async function startReplayFleet({ realUrl, clusters, silent, refusing }) {
  const recorded = new Map(); // key -> Promise<{ status, headers, body, latencyMs }>
  const record = (req) => {
    const key = `${req.method} ${req.url}`;
    if (!recorded.has(key))
      recorded.set(
        key,
        (async () => {
          const t0 = performance.now();
          const res = await fetch(realUrl + req.url, { method: req.method });
          const body = Buffer.from(await res.arrayBuffer());
          const headers = { 'content-type': res.headers.get('content-type') ?? 'application/json' };
          const product = res.headers.get('x-elastic-product');
          if (product) headers['x-elastic-product'] = product;
          return { status: res.status, headers, body, latencyMs: performance.now() - t0 };
        })(),
      );
    return recorded.get(key);
  };
  // Open: every connection, idle ones kept for the next round too. Busy: a request waiting for its
  // answer, or a silent cluster's connection (it waits for ever): what the fleet's bounds limit.
  let open = 0;
  let mostOpen = 0;
  let busy = 0;
  let mostBusy = 0;
  const count = (sock) => {
    open++;
    mostOpen = Math.max(mostOpen, open);
    sock.on('close', () => open--);
  };
  const busyWhile = (done) => {
    busy++;
    mostBusy = Math.max(mostBusy, busy);
    let ended = false;
    done(() => {
      if (!ended) busy--;
      ended = true;
    });
  };
  const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
  const servers = [];
  const urls = [];
  const nSilent = Math.round(clusters * silent);
  const nRefusing = Math.round(clusters * refusing);
  const nAnswering = clusters - nSilent - nRefusing;
  for (let i = 0; i < nAnswering; i++) {
    const server = http.createServer((req, res) => {
      req.resume();
      busyWhile((end) => res.on('close', end));
      record(req).then(
        (a) =>
          setTimeout(() => {
            res.writeHead(a.status, { ...a.headers, 'content-length': a.body.length });
            res.end(a.body);
          }, a.latencyMs),
        () => res.destroy(),
      );
    });
    server.on('connection', count);
    servers.push(server);
    urls.push(`http://127.0.0.1:${await listen(server)}`);
  }
  for (let i = 0; i < nSilent; i++) {
    const server = net.createServer((sock) => {
      sock.resume();
      busyWhile((end) => sock.on('close', end));
    });
    server.on('connection', count);
    servers.push(server);
    urls.push(`http://127.0.0.1:${await listen(server)}`);
  }
  for (let i = 0; i < nRefusing; i++) {
    // A port that was free a moment ago and where nothing listens now: the connection is refused.
    const probe = net.createServer();
    const port = await listen(probe);
    await new Promise((r) => probe.close(r));
    urls.push(`http://127.0.0.1:${port}`);
  }
  return {
    urls,
    counts: { answering: nAnswering, silent: nSilent, refusing: nRefusing },
    mostOpen: () => mostOpen,
    mostBusy: () => mostBusy,
    latencies: async () =>
      Object.fromEntries(await Promise.all([...recorded].map(async ([k, p]) => [k.split('?')[0], Math.round((await p).latencyMs)]))),
    close: async () => {
      for (const s of servers) s.closeAllConnections?.();
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    },
  };
}
