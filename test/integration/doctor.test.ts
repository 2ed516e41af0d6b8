// `shardeck doctor` (the built CLI) against real Elasticsearch 8.19 nodes that really have the
// conditions the checks look for: heap options in jvm.options.d that differ from jvm.options (the
// override wins) with Xms != Xmx, a noexec tmpfs as ES_TMPDIR (the node logs that native methods
// are disabled), a replica on one node, an allocation filter that matches no node, a disk past the
// watermarks (set in bytes relative to this disk), a secured node whose certificate expires in 30
// days. The seed's exact log messages are read through --log.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ES_USER, startNode } from '../../dev/lib/es-node.mjs';
import { diskSamplesFromLog } from '../../src/domain/doctor/forecast';
import { parseLog } from '../../src/domain/doctor/logs';
import { fileTempDir } from '../helpers/file-temp';
import { CLI, ensureBuilt, runCli } from '../helpers/run-cli';
import { sharedSecureNode, type SharedNode } from '../helpers/shared-node';
import { waitUntil } from '../helpers/wait-until';

const configDir = fileTempDir('shardeck-doctor-');
const env = { SHARDECK_CONFIG_DIR: configDir };

interface Finding {
  id: string;
  severity: string;
  finding: string;
  evidence: string[];
  remedy?: string;
  fix?: { key?: string; command: string };
}

async function doctor(args: string[]) {
  const r = await runCli(['doctor', '--json', ...args], { env });
  const report = JSON.parse(r.stdout);
  const byId = Object.fromEntries((report.findings ?? []).map((f: Finding) => [f.id, f])) as Record<string, Finding>;
  return { code: r.code, report, byId, stderr: r.stderr };
}

describe('doctor on a node with its heap from jvm.options.d, Xms != Xmx and a noexec temp folder', () => {
  let node: Awaited<ReturnType<typeof startNode>>;
  let es: (method: string, p: string, body?: unknown) => Promise<any>;
  let tmp = '';
  let mounted = false;
  const confOf = () => path.join(node.baseDir, 'config');

  beforeAll(async () => {
    ensureBuilt();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-noexec-'));
    // A real noexec mount (we run as root), owned by the engine's user: only exec is missing.
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'noexec,size=64m', 'tmpfs', tmp]);
    mounted = true;
    execFileSync('chown', [`${ES_USER}:${ES_USER}`, tmp]);
    node = await startNode({
      name: 'doctor-heap',
      tmpDir: tmp,
      settings: { 'cluster.info.update.interval': '10s' },
      // No ES_JAVA_OPTS: the heap comes from the files, as on a storage node.
      javaOpts: '',
      configFiles: {
        'jvm.options+': '\n-Xms300m\n-Xmx300m\n',
        'jvm.options.d/platform.options': '# heap of the platform\n-Xms256m\n-Xmx384m\n',
      },
    });
    es = async (method, p, body) => {
      const res = await fetch(node.url + p, {
        method,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return res.json();
    };
  });
  afterAll(async () => {
    await node?.stop();
    if (mounted) execFileSync('umount', [tmp]);
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('says which file sets the heap (jvm.options.d wins) and that Xms differs from Xmx', async () => {
    const { code, byId } = await doctor(['--url', node.url]);
    expect(code).toBe(1);
    const conf = confOf();
    const options = byId['heap.options.doctor-heap'];
    expect(options.severity).toBe('ok');
    expect(options.finding).toBe(
      `heap set by -Xms256m from ${conf}/jvm.options.d/platform.options:2, -Xmx384m from ${conf}/jvm.options.d/platform.options:3 ` +
        `(overrides -Xms300m at ${conf}/jvm.options:${fs.readFileSync(`${conf}/jvm.options`, 'utf8').split('\n').indexOf('-Xms300m') + 1}, -Xmx300m at ${conf}/jvm.options:${fs.readFileSync(`${conf}/jvm.options`, 'utf8').split('\n').indexOf('-Xmx300m') + 1})`,
    );
    const xms = byId['heap.xms-xmx.doctor-heap'];
    expect(xms.severity).toBe('warn');
    expect(xms.evidence).toContain(`node reports heap_init ${256 * 1024 ** 2} B, heap_max ${384 * 1024 ** 2} B`);
    expect(xms.evidence).toContain(`${conf}/jvm.options.d/platform.options:3: -Xmx384m`);
    expect(xms.remedy).toBe(
      `set -Xms and -Xmx to the same value in ${conf}/jvm.options.d/platform.options, then restart the engine (shardeck service restart)`,
    );
    expect(byId['heap.ram.doctor-heap'].severity).toBe('ok');
    expect(byId['heap.oops.doctor-heap'].severity).toBe('ok');
  });

  it('finds the noexec temp folder, and the line 8.19 logs for it', async () => {
    const { byId } = await doctor(['--url', node.url]);
    const t = byId['tmp.folder.doctor-heap'];
    expect(t.severity).toBe('warn');
    // startNode reaches a temp folder outside the node's own through <baseDir>/tmp, a symlink: the mount is the target's.
    expect(t.finding).toBe(`${node.baseDir}/tmp (-> ${tmp}) is on a noexec mount (${tmp}): JNA native methods are disabled`);
    expect(t.evidence.join('\n')).toMatch(/tmpfs\) with .*noexec/);
    expect(t.remedy).toMatch(new RegExp(`ES_TMPDIR .* owned by ${ES_USER}:${ES_USER} on a mount without noexec, then restart`));
    // 8.19.21 does not write the seed's "Unable to load JNA native support library" but
    // "Unable to load native provider. Native methods will be disabled." (o.e.n.NativeAccess).
    const jna = byId['log.jna'];
    expect(jna.severity).toBe('warn');
    expect(jna.finding).toMatch(
      /^"Unable to load JNA native support library, native methods will be disabled" 1 time in the log, first .*, last .*: the temporary folder is mounted noexec/,
    );
    expect(jna.evidence[0]).toBe(path.join(node.logsDir, `${node.clusterName}.log`));
    expect(jna.evidence[1]).toMatch(
      /\[o.e.n.NativeAccess\s*\] \[doctor-heap\] Unable to load native provider\. Native methods will be disabled\./,
    );
  });

  it('prints findings worst first with evidence, remedy and what applies it', async () => {
    const r = await runCli(['doctor', '--url', node.url], { env });
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^GREEN {2}cluster shardeck-doctor-heap-\d+, 1 node: 0 critical, \d warning\(s\), \d+ ok/);
    const firstOk = lines.findIndex((l) => l.startsWith('ok '));
    expect(lines.slice(1, firstOk).some((l) => l.startsWith('WARN '))).toBe(true);
    expect(lines.slice(firstOk).some((l) => l.startsWith('WARN '))).toBe(false);
    expect(r.stdout).toMatch(
      /WARN heap minimum 256mb differs from maximum 384mb: the JVM resizes the heap under load {2}\[doctor-heap\] {2}\(heap.xms-xmx.doctor-heap\)\n {7}node reports heap_init/,
    );
    expect(r.stdout).toMatch(/ {7}apply: shardeck service restart/);
  });

  it('the console: 7 opens the Doctor pane, which runs the checks on this node and shows the worst first', async () => {
    const SOCKET = `shardeck-doctor-${process.pid}`;
    const tmux = (...args: string[]) => execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
    const cmd = `env -u CI -u NO_COLOR -u FORCE_COLOR SHARDECK_CONFIG_DIR=${configDir} node ${CLI} --url ${node.url} --interval 1; sleep 600`;
    tmux('new-session', '-d', '-s', 'doc', '-x', '80', '-y', '24', cmd);
    try {
      const screen = () => tmux('capture-pane', '-p', '-t', 'doc');
      await waitUntil('the console', screen, (t) => /7 Do/.test(t));
      tmux('send-keys', '-t', 'doc', '7');
      const shown = await waitUntil('the checks on the Doctor pane', screen, (t) => /checked \S+ ago/.test(t) && /remedy:/.test(t));
      const rows = shown.split('\n').filter((l) => /^(CRIT|WARN|ok {2}|----) /.test(l));
      expect(rows[0]).toMatch(/^WARN heap\s+doctor-heap\s+heap minimum 256mb differs from maximum/);
      expect(shown).toMatch(/remedy: set -Xms and -Xmx to the same value in/);
      expect(shown).toMatch(/apply: shardeck service restart/);
    } finally {
      tmux('kill-server');
    }
  });

  it('a replica on one node: yellow, grouped under same_shard, fixed by the replicas wizard', async () => {
    await es('PUT', '/service_v9_rep', { settings: { number_of_shards: 2, number_of_replicas: 1 } });
    await es('GET', '/_cluster/health?wait_for_status=yellow&timeout=30s');
    const { code, byId } = await doctor(['--url', node.url]);
    expect(code).toBe(1);
    expect(byId['shards.unassigned.same_shard']).toMatchObject({
      severity: 'warn',
      finding: '2 unassigned shards blocked by same_shard: a copy may not share a node with another copy of the same shard',
      fix: { key: 'R', command: 'shardeck replicas set service_v9_rep 0' },
    });
    expect(byId['shards.health'].finding).toMatch(/^cluster is yellow because 2 replica shards blocked by same_shard/);
    expect(byId['shards.replicas-single-node']).toMatchObject({ severity: 'warn', evidence: ['service_v9_rep: number_of_replicas 1'] });
  });

  it('an allocation filter that matches no node: red (exit 2), one explain per case', async () => {
    await es('PUT', '/service_v9_nowhere?wait_for_active_shards=0', {
      settings: { number_of_shards: 1, number_of_replicas: 0, 'index.routing.allocation.require._name': 'no-such-node' },
    });
    const { code, byId, report } = await doctor(['--url', node.url]);
    expect(code).toBe(2);
    expect(report.findings[0].severity).toBe('critical');
    const f = byId['shards.unassigned.filter'];
    expect(f).toMatchObject({ severity: 'critical', fix: { key: 'e', command: 'shardeck explain service_v9_nowhere 0 primary' } });
    expect(f.evidence.join('\n')).toMatch(
      /allocation explain: node does not match index setting \[index.routing.allocation.require\] filters \[_name:"no-such-node"\]/,
    );
    expect(byId['shards.health'].finding).toMatch(
      /^cluster is red because 1 primary shard blocked by filter .*; 2 replica shards blocked by same_shard/,
    );
    await es('DELETE', '/service_v9_nowhere,service_v9_rep');
  });

  it("a disk past the high watermark warns (and the log's warning carries the free space); past flood stage it is critical with the read-only block", async () => {
    const WM = 'cluster.routing.allocation.disk.watermark';
    const set = (low: string | null, high: string | null, flood: string | null) =>
      es('PUT', '/_cluster/settings', { persistent: { [`${WM}.low`]: low, [`${WM}.high`]: high, [`${WM}.flood_stage`]: flood } });
    const total = Number((await es('GET', '/_cat/allocation?format=json&bytes=b&h=disk.total'))[0]['disk.total']);
    // Absolute watermarks are free space that must remain: the disk's whole size is always past.
    await es('PUT', '/service_v9_disk', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    try {
      await set(`${total}b`, `${total}b`, '1b');
      let r = await doctor(['--url', node.url]);
      expect(r.byId['disk.watermark.doctor-heap']).toMatchObject({
        severity: 'warn',
        finding: 'past the high watermark: Elasticsearch relocates shards away from this node',
      });
      expect(r.byId['disk.watermark.doctor-heap'].evidence[1]).toMatch(
        new RegExp(`^watermarks low ${total}b, high ${total}b, flood stage 1b`),
      );
      await set(`${total}b`, `${total}b`, `${total}b`);
      await waitUntil(
        'the flood-stage block',
        () => es('GET', '/service_v9_disk/_settings'),
        (s) => s.service_v9_disk?.settings?.index?.blocks?.read_only_allow_delete === 'true',
        { timeoutMs: 90_000 },
      );
      // The history the forecast falls back on: Elasticsearch logs the free space with each warning.
      const logged = await waitUntil(
        'a watermark warning in the node log',
        () =>
          diskSamplesFromLog(parseLog(fs.readFileSync(path.join(node.logsDir, `${node.clusterName}.log`), 'utf8')))['doctor-heap'] ?? [],
        (x) => x.length > 0,
        { timeoutMs: 90_000, intervalMs: 1000 },
      );
      expect(Math.abs(logged[0].totalBytes - total) / total).toBeLessThan(0.01);
      r = await doctor(['--url', node.url]);
      expect(r.code).toBe(2);
      expect(r.byId['disk.watermark.doctor-heap']).toMatchObject({ severity: 'critical', fix: { key: 'U', command: 'shardeck unblock' } });
      expect(r.byId['disk.read-only']).toMatchObject({
        severity: 'critical',
        evidence: ['service_v9_disk: index.blocks.read_only_allow_delete=true'],
        fix: { key: 'U' },
      });
    } finally {
      await set(null, null, null);
      await es('DELETE', '/service_v9_disk');
    }
  });

  it("reads the seed's exact messages from --log, with count, first and last time and remedy", async () => {
    const file = path.join(configDir, 'es.log');
    // Lines of the last hours: a line older than a day is said as old and not judged (issue 47).
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 6 * 3_600_000;
    const stamp = (ms: number) => {
      const d = new Date(ms);
      const p = (n: number) => String(n).padStart(2, '0');
      // The node's log writes its local time.
      return `[${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:00,000]`;
    };
    const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
    fs.writeFileSync(
      file,
      [
        `${stamp(hour)}[WARN ][o.e.b.JNANatives] [n1] Unable to load JNA native support library, native methods will be disabled`,
        `${stamp(hour + 3_600_000)}[WARN ][o.e.s.SearchService] [n1] Trying to create too many scroll contexts. Must be less than or equal to: [500]`,
        `${stamp(hour + 5_400_000)}[WARN ][o.e.s.SearchService] [n1] Trying to create too many scroll contexts. Must be less than or equal to: [500]`,
        `${stamp(hour + 7_200_000)}[WARN ][r.suppressed] [n1] cluster block exception`,
        `${stamp(hour + 10_800_000)}[WARN ][o.e.i.e.Engine] [n1] corrupt_index_exception`,
        `${stamp(hour + 10_801_000)}[WARN ][o.e.c.r.a.AllocationService] [n1] no_valid_shard_copy`,
      ].join('\n') + '\n',
    );
    const { byId } = await doctor(['--url', node.url, '--log', file]);
    expect(byId['log.scroll-contexts']).toMatchObject({ severity: 'warn', fix: { key: 'L', command: 'shardeck scroll-limit 1000' } });
    expect(byId['log.scroll-contexts'].finding).toMatch(
      new RegExp(
        ` 2 times in the log, first ${iso(hour + 3_600_000)}, last ${iso(hour + 5_400_000)}: open scroll contexts above the limit$`,
      ),
    );
    expect(byId['log.jna'].evidence[0]).toBe(file);
    expect(byId['log.cluster-block']).toMatchObject({
      severity: 'warn',
      remedy: 'free disk space, then clear the read-only block',
      fix: { key: 'U' },
    });
    expect(byId['log.corrupt'].finding).toMatch(/ 2 times in the log/);
  });

  it('bad input: one sentence, exit 64, nothing read; unreachable: exit 3', async () => {
    const r = await runCli(['doctor', '--url', node.url, '--log', '/nonexistent/es.log'], { env });
    expect(r.code).toBe(64);
    expect(r.stderr).toBe("shardeck doctor: the log file /nonexistent/es.log does not exist: give the node's log with --log FILE\n");
    const p = await runCli(['doctor', '--url', node.url, '--platform-on-host', 'maybe'], { env });
    expect(p.code).toBe(64);
    const u = await doctor(['--url', 'http://127.0.0.1:1']);
    expect(u.code).toBe(3);
    expect(u.report).toMatchObject({ schema: 1, reachable: false, error: { kind: 'unreachable' } });
  });
});

describe("doctor on a node whose temp folder belongs to root (the engine's user cannot write in it)", () => {
  let node: Awaited<ReturnType<typeof startNode>>;
  let tmp = '';
  beforeAll(async () => {
    ensureBuilt();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-roottmp-'));
    fs.chmodSync(tmp, 0o755);
    node = await startNode({ name: 'doctor-owner', tmpDir: tmp });
  });
  afterAll(async () => {
    await node?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('names the owner against the engine user, and the log line says native methods are off', async () => {
    const { code, byId } = await doctor(['--url', node.url]);
    expect(code).toBe(1);
    expect(byId['tmp.folder.doctor-owner']).toMatchObject({
      severity: 'warn',
      finding: `${node.baseDir}/tmp (-> ${tmp}) is owned by root, not by the engine's user ${ES_USER} (who cannot write in it): JNA native methods are disabled`,
    });
    expect(byId['tmp.folder.doctor-owner'].evidence).toContain(`owner root:root mode 755; engine runs as ${ES_USER}:${ES_USER}`);
    expect(byId['log.jna'].severity).toBe('warn');
  });
});

describe('doctor on a secured node (HTTPS, a certificate that expires in 30 days)', () => {
  let node: SharedNode;
  let pwFile: string;
  beforeAll(async () => {
    ensureBuilt();
    node = await sharedSecureNode();
    pwFile = path.join(configDir, 'es-password');
    fs.writeFileSync(pwFile, node.password + '\n', { mode: 0o600 });
  });

  it('HTTPS is ok; the certificates close to expiry are the warning', async () => {
    const { code, byId, report } = await doctor(['--url', node.url, '--ca', node.ca!, '--user', 'elastic', '--password-file', pwFile]);
    expect(byId['versions.transport']).toMatchObject({ severity: 'ok', finding: 'HTTPS to the node' });
    const certs = report.findings.filter((f: Finding) => f.id.startsWith('versions.certificate.'));
    expect(certs.length).toBeGreaterThan(0);
    for (const c of certs) {
      expect(c.severity).toBe('warn');
      expect(c.finding).toMatch(/expires in 29 days$/);
    }
    // Nothing else is wrong with this node's versions and transport: the certificates are the warning.
    // (The host's own limits are judged too: this machine's test nodes get 20,000 file descriptors
    // and its kernel 65,530 maps, real warnings of the host rules, not of this node's TLS.)
    expect(
      report.findings
        .filter((f: Finding) => f.severity === 'warn' || f.severity === 'critical')
        .filter((f: Finding) => !f.id.startsWith('host.') && !f.id.startsWith('master.load') && !f.id.startsWith('hotspots.cpu'))
        .every((f: Finding) => f.id.startsWith('versions.certificate.')),
    ).toBe(true);
    expect(code).toBe(1);
    expect(JSON.stringify(report)).not.toContain(node.password);
  });
});
