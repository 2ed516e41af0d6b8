// The Doctor pane on a report `shardeck doctor --json` made on a real 8.19 node (one index with a
// replica on one node, one with an allocation filter that matches no node:
// test/fixtures/doctor/report-red.json): worst first, the selected finding's remedy and evidence,
// Enter or the finding's own key opens the wizard on what it names, c runs the checks again.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../src/domain/doctor/report';
import { failOnConsoleError, KEYS, loadScenario, makeStore, NOW, renderApp, type Rendered } from './harness';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());

const REPORT: DoctorReport = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'doctor', 'report-red.json'), 'utf8'));

async function open(opts: { readOnly?: boolean; report?: boolean; ageMs?: number; doctorReport?: DoctorReport } = {}) {
  const store = makeStore({ readOnly: opts.readOnly });
  loadScenario(store, 'red');
  store.setState({
    pane: 'doctor',
    ...(opts.report === false
      ? {}
      : { doctor: { report: opts.doctorReport ?? REPORT, fetchedAt: NOW - (opts.ageMs ?? 5000), inFlight: false } }),
  });
  r = await renderApp(store, { columns: 80, rows: 24 });
  return r;
}

describe('Doctor pane', () => {
  it('runs the checks when it opens without a report, and again on c', async () => {
    const app = await open({ report: false });
    expect(app.doctors).toBe(1);
    await app.press('c');
    expect(app.doctors).toBe(2);
  });

  it('lists findings worst first; the selected one shows its remedy and what applies it', async () => {
    const app = await open();
    const frame = app.frame();
    expect(frame).toMatch(/Doctor {2}2 critical · 3 warn · \d+ ok · 1 not here +checked 5s ago · c again/);
    expect(frame).not.toMatch(/checked 5s ago.*just now/);
    const rows = app.lines().filter((l) => /^(CRIT|WARN|ok {2}|----) /.test(l));
    expect(rows[0]).toMatch(/^CRIT shards/);
    expect(rows.findIndex((l) => l.startsWith('WARN'))).toBeGreaterThan(rows.findIndex((l) => l.startsWith('CRIT')));
    await app.press(KEYS.down);
    expect(app.frame()).toMatch(/remedy: remove or correct the allocation filter/);
    expect(app.frame()).toMatch(/apply: Enter or e opens the wizard; or shardeck explain service_v9_nowhere 0\s+primary/);
  });

  it('checked under a second ago reads "checked just now" (the screenshot showed "checked now ago")', async () => {
    const app = await open({ ageMs: 300 });
    expect(app.frame()).toMatch(/1 not here +checked just now/);
    expect(app.frame()).not.toMatch(/now ago/);
    // Issue 47 item 6: the title's age is the findings', not the allocation read's "just now" beside "checked 5s ago".
    expect(app.frame()).not.toMatch(/just now.*just now/);
  });

  it('Enter opens the wizard of the finding on the shard it names', async () => {
    const app = await open();
    await app.press(KEYS.down);
    await app.press(KEYS.enter);
    expect(app.ui.getState().dialog).toEqual({ kind: 'wizard', id: 'allocation' });
    expect(app.ui.getState().selection.shards).toEqual({ index: 'service_v9_nowhere', shard: 0, primary: true, node: null });
  });

  it("the finding's own key works too: R on the replica finding opens the replicas wizard on its index", async () => {
    const app = await open();
    const i = REPORT.findings.findIndex((f) => f.id === 'shards.unassigned.same_shard');
    for (let k = 0; k < i; k++) await app.press(KEYS.down);
    await app.press('R');
    expect(app.ui.getState().dialog).toEqual({ kind: 'wizard', id: 'replicas' });
    expect(app.ui.getState().selection.indices).toEqual({ index: 'service_v9_rep' });
  });

  it("a task's finding: Enter opens its wizard (rethrottle) on the task it names", async () => {
    const task = 'abc123:4567';
    const long = {
      id: 'tasks.long-running',
      family: 'tasks' as const,
      severity: 'critical' as const,
      finding: `1 task running longer than 30.0s: delete by query ${task} (42.0s)`,
      evidence: [],
      fix: {
        commandId: 'wizard.taskRethrottle',
        key: 't',
        pane: 'tasks',
        command: `shardeck tasks rethrottle ${task} --rps -1`,
        target: { task },
      },
    };
    const app = await open({ doctorReport: { ...REPORT, findings: [long, ...REPORT.findings] } });
    expect(app.lines().find((l) => /^CRIT /.test(l))).toMatch(/^CRIT tasks/);
    await app.press(KEYS.enter);
    expect(app.ui.getState().dialog).toEqual({ kind: 'wizard', id: 'taskRethrottle' });
    expect(app.ui.getState().selection.tasks).toEqual({ task });
  });

  it('read-only: neither Enter nor the key opens a wizard, and the hint shows only the command', async () => {
    const app = await open({ readOnly: true });
    await app.press(KEYS.down);
    await app.press(KEYS.enter);
    await app.press('e');
    expect(app.ui.getState().dialog).toBeUndefined();
    expect(app.frame()).toMatch(/apply: shardeck explain service_v9_nowhere 0 primary/);
  });
});
