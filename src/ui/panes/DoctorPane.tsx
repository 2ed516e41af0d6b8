// Doctor: the seed's runbook checked on the node, findings worst first; under the table the
// selected finding's evidence, remedy and what applies it. Enter (or the finding's own key, e.g. R)
// opens the wizard that fixes it, on the index or shard the finding names. The checks run when the
// pane first opens and on `c`; they are not polled (allocation explains, files of the host).
import React, { useEffect, useMemo } from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import type { Finding } from '../../domain/doctor/finding';
import { formatAge } from '../../domain/text/format';
import { DOCTOR_COLUMNS, DOCTOR_SORT_KEYS, doctorSearchText, findingDetail } from '../../domain/panes/doctor';
import { fitText } from '../../domain/text/table';
import { PANE_SPECS } from '../../store/panes';
import { useConsole, useConsoleContext, useNow, useUi } from '../app/context';
import { useKeymap } from '../app/use-keymap';
import { DataTable } from '../components/DataTable';
import { bodyHeight, PaneFrame } from '../components/PaneFrame';
import { commandFor } from '../input/keys';
import { useKeyLayer } from '../input/router';
import { setSelection } from '../state';
import { colourOf } from '../theme';
import { WIZARDS } from '../wizards/registry';
import { FilterLine, filterLines, FullNameLine, useCutNames, useTableKeys, useTableModel } from './table';

/** Lines under the table for the selected finding. */
const DETAIL_LINES = 7;
const findingKey = (f: Finding) => f.id;

export function DoctorPane({ width, height }: { width: number; height: number }) {
  const { ui, poller, store } = useConsoleContext();
  const doctor = useConsole((s) => s.doctor);
  // The disks are polled on this pane (the forecast's samples): their age and errors head the pane.
  const allocation = useConsole((s) => s.snapshots.allocation);
  const readOnly = useConsole((s) => s.connection.readOnly);
  const { filtering, filter } = useUi((s) => ({ filtering: s.filtering, filter: s.tables.doctor.filter }));
  const keymap = useKeymap();
  useEffect(() => {
    const d = store.getState().doctor;
    if (!d?.report && !d?.inFlight) void poller?.doctor?.();
  }, [store, poller]);
  const rows = doctor?.report?.findings;
  const body = bodyHeight(height, [allocation]);
  const cut = useCutNames(rows, DOCTOR_COLUMNS, width);
  const rowsHigh = Math.max(1, body - filterLines(filtering, filter) - 1 - DETAIL_LINES - 1 - (cut.length ? 1 : 0));
  const model = useTableModel('doctor', rows, DOCTOR_SORT_KEYS, doctorSearchText, findingKey, rowsHigh);
  useTableKeys('doctor', 'doctor', model, DOCTOR_SORT_KEYS.length);
  const sel: Finding | undefined = model.rows[model.cursor];

  /** Opens the wizard of a finding's fix on what it names, if the keymap (not read-only) has its key. */
  const openFix = (f: Finding | undefined): boolean => {
    const fix = f?.fix;
    if (!fix?.commandId || !keymap.some((k) => k.id === fix.commandId)) return false;
    const wizard = WIZARDS.find((w) => w.commandId === fix.commandId);
    if (!wizard) return false;
    const t = fix.target;
    if (t?.index && t.shard !== undefined)
      setSelection(ui, 'shards', { index: t.index, shard: t.shard, primary: t.primary ?? true, node: null });
    else if (t?.index) setSelection(ui, 'indices', { index: t.index });
    if (t?.node) setSelection(ui, 'nodes', { node: t.node });
    // A task's wizard (cancel, rethrottle) opens on the task the finding names.
    if (t?.task) setSelection(ui, 'tasks', { task: t.task });
    ui.setState({ dialog: { kind: 'wizard', id: wizard.id }, filtering: false });
    return true;
  };
  useKeyLayer('pane', (name) => {
    const cmd = commandFor(name, ['doctor'], keymap);
    if (cmd?.id === 'doctor.run') {
      void poller?.doctor?.();
      return true;
    }
    // The highlight moved to a neighbour nobody chose: no fix until the operator looks again.
    if (model.gone !== undefined && (cmd?.id === 'doctor.apply' || (sel?.fix?.key && name === sel.fix.key))) return true;
    if (cmd?.id === 'doctor.apply') return openFix(sel);
    // The finding's own key (R, U, L, e, C) works here too, for the finding under the cursor.
    if (sel?.fix?.key && name === sel.fix.key) return openFix(sel);
    return false;
  });

  const now = useNow((t) => (doctor?.fetchedAt ? formatAge(t - doctor.fetchedAt) : ''));
  const c = doctor?.report?.counts;
  const info = c ? `${c.critical} critical · ${c.warn} warn · ${c.ok} ok${c.unknown ? ` · ${c.unknown} not here` : ''}` : '';
  // The age on the right is the findings' (issue 47 item 6), not the allocation read's beside them.
  const age = doctor?.inFlight ? 'checking…' : doctor?.fetchedAt ? `checked ${checkedAgo(now - doctor.fetchedAt)} · c again` : 'c checks';
  const detail = useMemo(() => (sel ? findingDetail(sel, readOnly, width) : []), [sel, readOnly, width]);
  return (
    <PaneFrame title={PANE_SPECS.doctor.title} info={info} age={age} snaps={[allocation]} width={width} height={height}>
      <Box flexDirection="column">
        {doctor?.error ? <Text color={colourOf('red')}>{fitText(`checks failed: ${doctor.error} (c: run again)`, width)}</Text> : null}
        <FilterLine pane="doctor" width={width} />
        <DataTable
          {...model}
          columns={DOCTOR_COLUMNS}
          height={rowsHigh}
          width={width}
          empty={doctor?.report ? 'no findings' : doctor?.inFlight ? 'checking the node…' : ''}
        />
        <FullNameLine row={sel} cut={cut} width={width} />
        <Box flexDirection="column" marginTop={1} height={DETAIL_LINES}>
          {detail.slice(0, DETAIL_LINES).map((l, i) => (
            <Text key={i} color={colourOf(l.tone)} dimColor={l.tone === 'gray'}>
              {fitText(l.text, width)}
            </Text>
          ))}
        </Box>
      </Box>
    </PaneFrame>
  );
}

/** formatAge says 'now' under a second: "checked just now", not "checked now ago". */
function checkedAgo(ms: number): string {
  const age = formatAge(ms);
  return age === 'now' ? 'just now' : `${age} ago`;
}
