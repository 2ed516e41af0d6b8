// Against the real secured node (TLS with a test CA, a certificate for 127.0.0.1 and localhost):
// reached through another loopback address, 127.0.0.2, the certificate is trusted but issued for
// another name. shardeck says so and names the names, instead of "give --ca". The node listens on
// 127.0.0.1 only, so a plain TCP relay on 127.0.0.2 forwards the bytes: the TLS handshake is the
// node's own (no certificate of the test's). Also: a 401 is exit 3 in every command (as status documents).
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { sharedSecureNode, type SharedNode } from '../helpers/shared-node';

let node: SharedNode;
let relay: net.Server;
let relayUrl: string;
let dir: string;
let env: NodeJS.ProcessEnv;
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  ensureBuilt();
  node = await sharedSecureNode();
  const port = Number(new URL(node.url).port);
  relay = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.2', r));
  relayUrl = `https://127.0.0.2:${(relay.address() as net.AddressInfo).port}`;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-tls-name-'));
  env = { SHARDECK_CONFIG_DIR: path.join(dir, 'conf'), ES_PW: node.password!, WRONG_PW: 'not-the-password' };
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => relay?.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

const auth = (pwEnv = 'ES_PW') => ['--user', 'elastic', '--password-env', pwEnv, '--ca', node.ca!];

describe('TLS host-name mismatch', () => {
  it('the real address works (control)', async () => {
    const r = await runCli(['status', '--url', node.url, ...auth()], { env });
    expect([0, 1]).toContain(r.code);
  });

  for (const command of [['status'], ['unblock', '--json'], ['explain']]) {
    it(`${command[0]} via 127.0.0.2: exit 3, the certificate is valid but for 127.0.0.1; no "--ca" advice`, async () => {
      const r = await runCli([...command, '--url', relayUrl, ...auth()], { env });
      expect(r.code, r.stdout + r.stderr).toBe(3);
      const said = r.stdout + r.stderr;
      expect(said).toMatch(/is valid but was issued for [^:]*127\.0\.0\.1/);
      // Node's check lists only the certificate's IP names for an IP host (localhost is not in its message).
      expect(said).toMatch(/not 127\.0\.0\.2/);
      expect(said).toMatch(/connect with one of those names in --url \(e\.g\. https:\/\/127\.0\.0\.1:\d+\)/);
      expect(said).not.toMatch(/--ca FILE|not trusted/);
      expect(said).not.toContain(node.password);
    });
  }
});

describe('a 401 is exit 3 (unreachable or unauthorized) in every command', () => {
  for (const command of [['status'], ['unblock', '--json'], ['scroll-limit'], ['explain'], ['tasks']]) {
    it(`${command[0]} with a wrong password`, async () => {
      const r = await runCli([...command, '--url', node.url, ...auth('WRONG_PW')], { env });
      expect(r.code).toBe(3);
      expect(r.stdout + r.stderr).toMatch(/refused the credentials \(401\)/);
      expect(r.stdout + r.stderr).not.toContain('not-the-password');
    });
  }
});
