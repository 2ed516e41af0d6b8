// A right-sizing killed at every step (SIGKILL, as a crash or a dropped SSH session would end it)
// and resumed with `shrink --resume` ends with the same documents under the same name, nothing
// left behind (issue 42); killed before its original is deleted it can be rolled back instead.
// One real node, the built CLI.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stepsOf } from '../../src/domain/shrink/plan';
import { fileTempDir } from '../helpers/file-temp';
import { CLI, ensureBuilt, runCli } from '../helpers/run-cli';
import { esCall } from '../helpers/real-node';
import { waitUntil } from '../helpers/wait-until';
import { sharedNode, type SharedNode } from '../helpers/shared-node';
import { autoCreateIndex, indexNames, indexState, projectIndex, watchCli } from '../helpers/shrink';

let node: SharedNode;
let cfg: string;
const env = () => ({ SHARDECK_CONFIG_DIR: cfg });
const cli = (args: string[]) => runCli([args[0], '--url', node.url, ...args.slice(1)], { env: env() });

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
});

// A config folder of its own per test: a run one test leaves unfinished does not refuse the next one's.
beforeEach(() => {
  cfg = fileTempDir('shardeck-shrink-resume-');
});
afterEach(() => fs.rmSync(cfg, { recursive: true, force: true }));

const SOCKET = `shardeck-shrink-${process.pid}`;
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });

afterAll(() => {
  try {
    tmux('kill-server');
  } catch {
    // no session left
  }
});

/** Starts a shrink of `index` and SIGKILLs it once `at` is printed; the output so far. */
async function killAt(index: string, at: RegExp): Promise<string> {
  const run = watchCli(['shrink', '--url', node.url, index, '--shards', '1', '--yes', '--accept-data-loss', index], env());
  await run.line(at);
  run.child.kill('SIGKILL');
  const end = await run.done;
  expect(end.signal, end.output).toBe('SIGKILL');
  return end.output;
}

async function expectRightSized(index: string, before: Awaited<ReturnType<typeof indexState>>): Promise<void> {
  expect(await indexState(node.url, index)).toEqual({ ...before, shards: 1, uuid: expect.any(String) });
  expect((await indexNames(node.url)).filter((i) => i.startsWith(index))).toEqual([index]);
  expect(await autoCreateIndex(node.url)).toEqual({ persistent: null, transient: null });
}

/** `shrink --resume` (through `url`) of a 1,000-document index to the end: the same documents under the same name, nothing left unfinished. */
async function resumedToTheEnd(index: string, before: Awaited<ReturnType<typeof indexState>>, url = node.url): Promise<void> {
  const r = await runCli(['shrink', '--url', url, '--resume', '--yes', '--accept-data-loss', index, '--json'], { env: env() });
  expect(r.code, `${r.stderr}\n${r.stdout}`).toBe(0);
  expect(JSON.parse(r.stdout).report).toMatchObject({
    ok: true,
    indices: [{ index, from: 6, to: 1, docsBefore: 1000, docsAfter: 1000, outcome: 'done' }],
  });
  await expectRightSized(index, before);
  expect((await cli(['shrink', '--resume'])).stdout).toMatch(/no unfinished right-sizing/);
}

const STEPS = stepsOf({ snapshot: false, route: false, holdName: true });

describe('killed at each step, then --resume', () => {
  // Killed as each step starts (journaled "started"; its request sent or not, the process cannot say),
  // and right after the two steps that remove an index said they were done.
  const cases: { step: string; when: 'start' | 'done' }[] = [
    ...STEPS.map((step) => ({ step, when: 'start' as const })),
    { step: 'delete-original', when: 'done' },
    { step: 'clone', when: 'done' },
  ];
  for (const [i, c] of cases.entries())
    it(`killed at the ${c.when} of ${c.step}: resumed, the same documents under the same name`, async () => {
      const index = `service_v9_kill_${String(i).padStart(2, '0')}`;
      await projectIndex(node.url, index, 1000);
      const before = await indexState(node.url, index);
      const head = new RegExp(`^${index} ${c.step}:`, 'm');
      const output = await killAt(
        index,
        c.when === 'start' ? head : new RegExp(`^  done: ${c.step === 'clone' ? `${index} exists again` : `${index} is deleted`}`),
      );
      if (c.when === 'done') expect(output).toMatch(head);
      // The operator is told which index and step, and whether it can still be rolled back.
      const told = await cli(['shrink', '--resume', '--dry-run']);
      expect(told.code, told.stderr).toBe(0);
      expect(told.stdout).toMatch(
        new RegExp(`a shrink of ${index} \\(1 of 1, .*\\) stopped at step ${c.when === 'start' ? c.step : '[a-z-]+'}`),
      );
      const gone = c.when === 'done' || STEPS.indexOf(c.step as (typeof STEPS)[number]) > STEPS.indexOf('delete-original');
      if (gone) expect(told.stdout).not.toMatch(/--rollback puts the original back/);
      // A new run is refused while this one is unfinished.
      const other = await cli(['shrink', index, '--shards', '1', '--dry-run']);
      expect(other.code).toBe(5);
      expect(other.stderr).toMatch(/finish it first \(shardeck shrink --resume, or --rollback\); nothing was sent/);
      await resumedToTheEnd(index, before);
    });
});

/**
 * A proxy in front of the node that lets the clone request reach the node but never gives its
 * answer back (a run killed after sending, before the answer), with a hook before the clone is
 * forwarded and one before a health read of `index` is.
 */
async function cloneAnswerHeld(
  target: string,
  index: string,
  hooks: { beforeClone: () => Promise<unknown>; beforeIndexHealth: () => Promise<unknown> },
): Promise<{ url: string; close: () => void }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '/';
      const clone = req.method === 'POST' && url.includes('/_clone/');
      const indexHealth = url.split('?')[0] === `/_cluster/health/${index}`;
      void (clone ? hooks.beforeClone() : indexHealth ? hooks.beforeIndexHealth() : Promise.resolve()).then(() => {
        const up = http.request(target + url, { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
          if (clone) return void answer.resume(); // held: the CLI never hears back
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        up.end(Buffer.concat(chunks));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

describe('killed after the clone was sent, before its answer, while its shard has not started', () => {
  it('the resume knows the clone while it cannot be counted yet (no wait decides it) and goes on', async () => {
    const index = 'service_v9_late_clone';
    await projectIndex(node.url, index, 1000);
    const before = await indexState(node.url, index);
    // New shards stay unassigned from the clone on (uncountable), until the resume's wait for green reads the index's health.
    const allocation = (enable: string | null) =>
      esCall(node.url, 'PUT', '/_cluster/settings', { persistent: { 'cluster.routing.allocation.enable': enable } });
    let healthReads = 0;
    const proxy = await cloneAnswerHeld(node.url, index, {
      beforeClone: () => allocation('none'),
      beforeIndexHealth: () => {
        healthReads++;
        return allocation(null);
      },
    });
    try {
      const run = watchCli(['shrink', '--url', proxy.url, index, '--shards', '1', '--yes', '--accept-data-loss', index], env());
      // The clone (1 shard) under the name, not the original (6) it replaces.
      await waitUntil(
        'the clone on the node',
        async () => (await esCall(node.url, 'GET', `/${index}/_settings/index.number_of_shards`)).body,
        (b) =>
          (b as Record<string, { settings?: { index?: { number_of_shards?: string } } }>)[index]?.settings?.index?.number_of_shards === '1',
        { timeoutMs: 60_000 },
      );
      run.child.kill('SIGKILL');
      await run.done;
      const readsAtKill = healthReads;
      // The clone is there and cannot be counted: its shard has not started.
      const uncounted = async () => expect((await esCall(node.url, 'GET', `/${index}/_count`)).status).not.toBe(200);
      await uncounted();
      const told = await runCli(['shrink', '--url', proxy.url, '--resume', '--dry-run'], { env: env() });
      expect(told.code, told.stderr).toBe(0);
      expect(told.stdout).toMatch(new RegExp(`a shrink of ${index} \\(1 of 1, .*\\) stopped at step clone`));
      expect(told.stdout + told.stderr).not.toMatch(/not shardeck's clone/);
      // Told while the clone still could not be counted.
      expect(healthReads).toBe(readsAtKill);
      await uncounted();
      await resumedToTheEnd(index, before, proxy.url);
      expect(healthReads).toBeGreaterThan(readsAtKill);
    } finally {
      await allocation(null);
      proxy.close();
    }
  }, 180_000);
});

describe('killed before the original is deleted, then --rollback', () => {
  it('the original as it was: its copy deleted, its block lifted, the name no longer held', async () => {
    const index = 'service_v9_back';
    await projectIndex(node.url, index, 500);
    const before = await indexState(node.url, index);
    await killAt(index, new RegExp(`^${index} delete-original:`));
    // Killed at the delete's start: its request may have gone. Here the original is still there (read back).
    const names = await indexNames(node.url);
    if (!names.includes(index)) return; // the delete went out before the kill: only forward (the loop above covers it)
    const r = await cli(['shrink', '--rollback', '--yes', '--accept-data-loss', index]);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toMatch(/rolled back: service_v9_back is the original again, as it was/);
    expect(await indexState(node.url, index)).toEqual(before);
    expect((await indexNames(node.url)).filter((i) => i.startsWith(index))).toEqual([index]);
    expect(await autoCreateIndex(node.url)).toEqual({ persistent: null, transient: null });
    // Nothing unfinished is left: a new run starts.
    expect((await cli(['shrink', index, '--shards', '3', '--dry-run'])).code).toBe(0);
  });

  it('once the original is deleted, --rollback is refused and says the run can only go on', async () => {
    const index = 'service_v9_forward';
    await projectIndex(node.url, index, 200);
    const before = await indexState(node.url, index);
    await killAt(index, new RegExp(`^${index} clone:`));
    const r = await cli(['shrink', '--rollback', '--yes', '--accept-data-loss', index]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/was deleted: a roll back cannot bring it back; shardeck shrink --resume goes on with its copy/);
    const resumed = await cli(['shrink', '--resume', '--yes', '--accept-data-loss', index]);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    await expectRightSized(index, before);
  });
});

describe('an unfinished run is named where the operator looks', () => {
  it('status warns (exit 1 on a green cluster) and the console opens the wizard on it; a copy no run of yours knows is said too', async () => {
    const index = 'service_v9_told';
    await projectIndex(node.url, index, 300);
    const before = await indexState(node.url, index);
    await killAt(index, new RegExp(`^${index} check-copy:`, 'm'));
    const st = await cli(['status']);
    expect(st.code, st.stdout + st.stderr).toBe(1);
    expect(st.stdout).toMatch(
      /WARNING a shrink of service_v9_told \(1 of 1, .*\) stopped at step check-copy: writes to it are refused \(index\.blocks\.write\); .*shardeck shrink --resume goes on \(or --rollback puts the original back\)/,
    );
    expect(JSON.parse((await cli(['status', '--json'])).stdout).shrinkUnfinished).toHaveLength(1);
    // The console, as an operator opens it in an 80x24 terminal: the wizard names the index and the step.
    const s = 'told';
    tmux(
      'new-session',
      '-d',
      '-s',
      s,
      '-x',
      '80',
      '-y',
      '24',
      `env -u CI -u NO_COLOR SHARDECK_CONFIG_DIR=${cfg} node ${CLI} --url ${node.url}; sleep 600`,
    );
    const screen = await waitUntil(
      'the console naming the unfinished run',
      () => tmux('capture-pane', '-p', '-t', s),
      (t) => /an unfinished right-sizing/.test(t),
      {
        timeoutMs: 30_000,
        intervalMs: 250,
      },
    );
    expect(screen).toMatch(/a shrink of service_v9_told/);
    expect(screen).toMatch(/stopped at step check-copy/);
    expect(screen).toMatch(/roll back to the original/);
    tmux('kill-session', '-t', s);
    // A temporary copy no run of this operator names (another operator's, or a journal gone): said, never touched.
    expect(
      (
        await esCall(node.url, 'PUT', '/service_v9_other-shrink-20260101000000', {
          settings: { number_of_shards: 1, number_of_replicas: 0 },
        })
      ).status,
    ).toBe(200);
    const other = await cli(['status']);
    expect(other.stdout).toMatch(
      /WARNING the temporary right-sizing copy service_v9_other-shrink-20260101000000 exists and no unfinished run of yours names it/,
    );
    await esCall(node.url, 'DELETE', '/service_v9_other-shrink-20260101000000');
    expect((await cli(['shrink', '--resume', '--yes', '--accept-data-loss', index])).code).toBe(0);
    await expectRightSized(index, before);
    const after = await cli(['status']);
    expect(after.stdout).not.toMatch(/right-sizing|a shrink of/);
  });
});
