// Text commands print data inside lines they lay out themselves: the door (commands/output.ts)
// keeps line breaks and tabs as layout, so a name's own line break or tab must be escaped where
// the name is put into the line (issue 23). Each formatter here gets every hostile name (a line
// break, a tab, ESC, BEL, C1, a right-to-left override, zero-width characters) and must keep its
// line count and show the name as the console does (displayText).
import { describe, expect, it } from 'vitest';
import { doctorText, doctorUnreachableText } from '../../src/commands/doctor';
import { fieldLine } from '../../src/commands/mappings';
import { profilesText } from '../../src/commands/profiles';
import { projectsText } from '../../src/commands/projects';
import { findingLines, stepLines } from '../../src/commands/recover-corrupt';
import { planLines, type PlanStep } from '../../src/domain/corruption/plan';
import type { DoctorReport, DoctorUnreachable } from '../../src/domain/doctor/report';
import { fleetDetail, fleetTextLine, type FleetRow } from '../../src/domain/inspect/fleet';
import { findingFactLines, type CorruptShardReport } from '../../src/services/corruption';
import { runEndLines, type RunEnd } from '../../src/services/recovery-runner';
import { displayText } from '../../src/domain/text/display-text';
import { catTable, namesText } from '../../src/domain/inspect/inspect';
import { previewLines, type Preview } from '../../src/domain/mutation/preview';
import { describeMatch } from '../../src/domain/mutation/targets';
import { templateLine } from '../../src/domain/templates';
import { entryText, type TimelineEntry } from '../../src/domain/timeline';
import type { IndexTemplate } from '../../src/domain/templates';
import { HOSTILE } from '../fixtures/hostile/names';

/** What a terminal would act on, or what would make a name look like another or break its line. */
// eslint-disable-next-line no-control-regex -- what must never reach a line raw: control characters on purpose
const RAW = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;

const cases = HOSTILE.map((h) => [h.label, h.name] as const);

describe('a hostile name put into a line stays in that line, visibly escaped', () => {
  it.each(cases)('%s', (_, name) => {
    const shown = displayText(name);
    const one = (line: string, what: string) => {
      expect(line, what).not.toMatch(RAW);
      expect(line, what).toContain(shown);
    };
    const table = catTable([
      { index: name, health: 'green' },
      { index: 'plain', health: 'yellow' },
    ]);
    expect(table).toHaveLength(3);
    one(table[1], 'catTable');
    // Columns still line up: the escaped name is what is measured.
    expect(table[2].indexOf('yellow')).toBe(table[0].indexOf('health'));
    one(namesText([name, 'b']), 'namesText');
    one(describeMatch([name]), 'describeMatch');
    one(fieldLine({ name, type: 'keyword', depth: 0, multi: false, disabled: false, notes: [] } as never), 'fieldLine');
    one(templateLine({ name, patterns: [name], composedOf: [name], shards: 1, replicas: 0 } as unknown as IndexTemplate), 'templateLine');
    const preview = {
      summary: `set number_of_replicas of ${name} to 1`,
      method: 'PUT',
      path: `/${encodeURIComponent(name)}/_settings`,
      curl: 'curl ...',
    } as Preview;
    const lines = previewLines(preview);
    expect(lines).toHaveLength(3);
    one(lines[0], 'previewLines');
    const entries: TimelineEntry[] = [
      { kind: 'note', time: '2026-11-25T00:00:00Z', author: name, text: name },
      { kind: 'change', time: '2026-11-25T00:00:00Z', who: 'root', summary: `delete ${name}`, target: name, result: `failed: ${name}` },
      {
        kind: 'health',
        time: '2026-11-25T00:00:00Z',
        from: 'green',
        to: 'red',
        unassigned: 1,
        unassignedPrimaries: 1,
        shards: [`${name}[0] p UNASSIGNED`],
      },
    ];
    for (const e of entries) one(entryText(e), `entryText ${e.kind}`);
  });

  // Multi-line outputs: each must have as many lines as it has with a plain name, and every line
  // that shows the name shows it escaped.
  it.each(cases)('%s: doctor, fleet, projects, profiles and recover-corrupt keep their lines', (_, name) => {
    const shown = displayText(name);
    const block = (text: string, what: string, plainText: string) => {
      // The layout's own line breaks (and a trailing one) are the only ones.
      for (const line of text.split('\n')) expect.soft(line, what).not.toMatch(RAW);
      expect.soft(text, what).toContain(shown);
      expect.soft(text.split('\n'), what).toHaveLength(plainText.split('\n').length);
    };
    const each = <T>(make: (n: string) => T, render: (v: T) => string, what: string) =>
      block(render(make(name)), what, render(make('plain')));

    const report = (n: string) =>
      ({
        schema: 1,
        reachable: true,
        cluster: { name: n, status: 'yellow', nodes: 1, dataNodes: 1 },
        worst: 'warn',
        counts: { critical: 0, warn: 1, ok: 0, unknown: 0 },
        findings: [
          {
            id: `shards.unassigned.${n}`,
            family: 'shards',
            severity: 'warn',
            node: n,
            finding: `${n} has an unassigned replica`,
            evidence: [`${n}[0] r UNASSIGNED`, `log: ${n}`],
            remedy: `set the replicas of ${n} to 0`,
            fix: { key: 'R', pane: 'indices', command: `shardeck replicas set ${n} 0` },
          },
        ],
      }) as unknown as DoctorReport;
    each(report, doctorText, 'doctorText');
    const unreachable = (n: string) =>
      ({
        schema: 1,
        reachable: false,
        error: { kind: 'forbidden', message: `refused: ${n}` },
        access: { user: n, missing: { watcher: [`index monitor on ${n}`], operator: [n] } },
      }) as unknown as DoctorUnreachable;
    each(unreachable, doctorUnreachableText, 'doctorUnreachableText');

    const row = (n: string, status: FleetRow['status']) =>
      ({
        profile: n,
        url: `http://${n}:9200`,
        status,
        cluster: n,
        error: status === 'unreachable' ? `refused ${n}` : undefined,
        nodes: 1,
        unassigned: 0,
        disk: 'ok',
        readOnlyIndices: 0,
      }) as unknown as FleetRow;
    for (const status of ['green', 'unreachable'] as const) {
      each(
        (n) => row(n, status),
        (r) => fleetTextLine(r, 0),
        `fleetTextLine ${status}`,
      );
      each((n) => row(n, status), fleetDetail, `fleetDetail ${status}`);
    }
    // The status word is coloured, never a profile that reads like one.
    expect(fleetTextLine(row('GREEN', 'green'), 0, (s) => `<${s}>`)).toMatch(/^GREEN\s+<GREEN>\s+GREEN nodes/);

    // The tenant is the project's id, so the tenant line is covered too.
    const projects = (n: string) => [{ id: n, name: n }];
    each(projects, (p) => projectsText(p[0].id, p, { reachable: false, error: `no node: ${p[0].name}` }), 'projectsText, no storage');
    each(
      projects,
      (p) =>
        projectsText(
          p[0].id,
          p,
          { reachable: true, url: `http://${p[0].id}` },
          {
            templateVersion: 'v9',
            projects: [{ ...p[0], index: `service_v9_${p[0].id}`, indexExists: false }],
            projectsWithoutIndex: [p[0].id],
            indicesWithoutProject: [`service_v9_${p[0].id}`],
          },
        ),
      'projectsText, with indices',
    );

    each((n) => [{ name: n, last: true, url: `http://${n}`, platformUrl: `https://${n}`, signedIn: false }], profilesText, 'profilesText');

    const corrupt = (n: string) =>
      ({
        index: n,
        shard: 0,
        node: { name: n },
        canAllocate: 'no_valid_shard_copy',
        corrupt: true,
        reason: `corrupt in ${n}`,
        file: `/data/${n}/segments_1`,
        folder: `/data/${n}`,
        folderOnThisHost: true,
        docs: null,
        options: [`restore ${n} from a snapshot`],
        logEvidence: [`CorruptIndexException ${n}`],
        local: { ok: false, reason: `node ${n} runs elsewhere` },
      }) as unknown as CorruptShardReport;
    each(corrupt, (c) => findingFactLines(c).join('\n'), 'findingFactLines');
    each(corrupt, (c) => findingLines(c).join('\n'), 'findingLines');
    const step = (n: string) =>
      ({
        id: 'backup',
        title: `back up ${n}`,
        note: `the folder of ${n}`,
        command: `tar -czf ${n}.tgz ${n}`,
        losesData: false,
      }) as unknown as PlanStep;
    const conn = { url: 'http://127.0.0.1:9200' } as never;
    each(step, (st) => stepLines(st, 1, 2, conn).join('\n'), 'stepLines');
    each(step, (st) => planLines({ steps: [st] } as never, conn).join('\n'), 'planLines');
    const progress = (n: string) => ({ index: n, shard: 0, facts: {}, steps: [] }) as never;
    const ends = (n: string): RunEnd[] => [
      { status: 'failed', progress: progress(n), step: step(n), message: `failed on ${n}`, advice: `look at ${n}` },
      { status: 'declined', progress: progress(n), step: step(n) },
      { status: 'refused', progress: progress(n), step: step(n), message: `type ${n}` },
      { status: 'busy', progress: progress(n), pid: 1 },
    ];
    for (const i of [0, 1, 2, 3])
      each(
        (n) => ends(n)[i],
        (e) => runEndLines(e).join('\n'),
        `runEndLines ${ends('x')[i].status}`,
      );
  });

  it('the plain name is left as it is', () => {
    expect(catTable([{ index: 'logs-2026.11' }])[1]).toBe('logs-2026.11');
    expect(displayText('logs-2026.11 é 漢字')).toBe('logs-2026.11 é 漢字');
  });

  it('zero-width characters are shown, so two names that look alike do not read alike', () => {
    expect(displayText('logs\u200b-1')).toBe('logs\\u200b-1');
    expect(displayText('a\ufeffb\u2060c\u200dd')).toBe('a\\ufeffb\\u2060c\\u200dd');
  });
});
