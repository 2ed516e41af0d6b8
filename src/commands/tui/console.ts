// One console on one connection: everything it starts goes on one stop list, and the list runs,
// last started first, on every way out (q and Ctrl-C end Ink; a signal or a crash runs it from
// screen.ts; Enter in the Fleet view ends this console for another profile's).
import { saveIndexNames } from '../../config/completion-cache';
import { describeHolder } from '../../config/cluster-lock';
import { createEsApi, type EsApi } from '../../cluster/api';
import { closeClient, type ConnError } from '../../cluster/connection';
import { connectionSecrets } from '../../domain/host/host-env';
import { StopList } from '../../domain/host/stop-list';
import { IndexDetailPoller } from '../../services/index-detail';
import { startPlatformSignIn } from '../../services/platform-sign-in';
import { Poller } from '../../services/poller';
import { TimelineRecorder } from '../../services/timeline';
import { createConsoleStore, snapshotRead, type ConsoleStore } from '../../store/console';
import { createUiStore, type UiStore } from '../../ui/state';
import { allocationLeft } from '../../services/allocation-record';
import { shrinkLeft } from '../../services/shrink-left';
import { EXIT, openConnection, type CommandContext } from '../support/common';
import { err } from '../support/output';
import { exitThroughStops, holdAlternateScreen, reportStopFailure } from '../support/screen';
import { consoleFleet } from './fleet';
import { consoleSharing } from './share';
import { consoleFiles, frameKeeping } from './last-frame';
import { readColumnChoices } from '../../config/columns';
import { readHistory } from '../../config/command-history';
import { lineCommands } from './line-commands';
import type { CommandLoaders } from '../help';

/** Keeps the shell completion's index names (config/completion-cache.ts) up to date with each poll. */
function cacheIndexNames(store: ConsoleStore): () => void {
  let last = '';
  return store.subscribe((s) => {
    const rows = s.snapshots.indices.data;
    if (!rows) return;
    const names = rows.map((r) => r.name).sort();
    const key = names.join('\n');
    if (key === last) return;
    last = key;
    try {
      saveIndexNames(names);
    } catch {
      // A config folder we may not write (shown elsewhere): completion only loses its index names.
    }
  });
}

/** How long the console's first frame waits for the cluster's health (store/console.ts snapshotRead). */
const FIRST_FRAME_WAIT_MS = 200;

/** One console on one connection; the flags of the next console when the operator switched profile. */
export async function runConsole(
  values: CommandContext['values'],
  intervalMs: number | undefined,
  commands: CommandLoaders,
): Promise<CommandContext['values'] | number | undefined> {
  const { client, conn, where, profileName, profile, badge } = await openConnection(values, { allocationCheck: false });
  const es = createEsApi(client, conn.url);
  // A major shardeck does not know is refused here, once, rather than failing pane by pane. Any
  // other failure (unreachable, no rights for GET /) is left to the panes, which say it and retry.
  try {
    await es.checkVersion();
  } catch (e) {
    if ((e as ConnError).kind === 'unsupported') {
      err(`shardeck: ${(e as Error).message}\n`);
      await closeClient(client);
      return EXIT.failed;
    }
  }
  const stops = new StopList();
  stops.add('connection', () => void client.close());
  try {
    const store = createConsoleStore({
      connection: {
        url: where,
        profile: profileName,
        user: conn.user,
        insecure: Boolean(conn.insecure),
        readOnly: conn.readOnly,
        ...(badge ? { badge } : {}),
      },
      ...(profile?.templateVersion ? { templateVersion: profile.templateVersion } : {}),
      ...((intervalMs ?? profile?.intervalMs) ? { intervalMs: intervalMs ?? profile?.intervalMs } : {}),
    });
    const poller = new Poller(es, store);
    // The index detail's reads, only while it is open (Enter on an Indices row).
    const detail = new IndexDetailPoller(es, store);
    // What the panes may ask beyond the poll: the refresh key (the open index detail too), the verbose health report, the doctor's checks.
    const pollControl = {
      refreshNow: () => Promise.all([poller.refreshNow(), detail.refreshNow()]).then(() => undefined),
      diagnose: () => poller.diagnose(),
      // Loaded when the Doctor pane first asks (as are sharing, the Fleet view and the guard: not needed for the first frame).
      doctor: async () => {
        const { platformOnHost, runDoctorInto } = await import('../../services/doctor');
        const { doctorSettings } = await import('../../domain/doctor/settings');
        // The profile's doctor keys (a value that is not a duration leaves the defaults).
        const settings = doctorSettings({}, profile as Readonly<Record<string, unknown>> | undefined);
        return runDoctorInto(store, es, {
          scheme: conn.url.startsWith('https:') ? 'https' : 'http',
          platformOnHost: platformOnHost(profile),
          ...(settings.ok ? { taskThresholds: settings.value.thresholds, snapshotPeriod: settings.value.snapshotPeriod } : {}),
        });
      },
    };
    // The columns this profile chose per table pane (V); a broken file is said and the defaults shown.
    let columns = {};
    try {
      columns = readColumnChoices(profileName);
    } catch (e) {
      store.setState({ notice: (e as Error).message });
    }
    let history: string[] = [];
    try {
      history = readHistory(profileName);
    } catch (e) {
      store.setState({ notice: (e as Error).message });
    }
    const ui = createUiStore({ columns, history });
    // The incident timeline: health transitions as this console sees them, notes, and every change in the audit log.
    const recorder = new TimelineRecorder(store, where);
    const requireApproval = Boolean(values['require-approval'] || profile?.requireApproval);
    const shareGroup = values['share-group'] as string | undefined;
    const sharing = consoleSharing(store, ui, recorder, { group: shareGroup, requireApproval, readOnly: conn.readOnly });
    // Set once the console is mounted; the Fleet view may ask to leave before that.
    let instance: { unmount: () => void; waitUntilExit: () => Promise<unknown> } | undefined = undefined;
    const fleet = consoleFleet(() => instance?.unmount());

    // The first polls go out before React, Ink and the panes are loaded: their code (~0.9 MB)
    // is compiled while the node answers, so the first frame can already show live data.
    poller.start();
    stops.add('poller', () => poller.stop());
    exitThroughStops(stops, 'console');
    // Signs in to the platform when the profile has one (header user@tenant, project names).
    const platform = startPlatformSignIn(store, profileName, profile);
    stops.add('platform sign-in', () => platform.stop());
    detail.start();
    stops.add('index detail', () => detail.stop());
    stops.add('index-name cache', cacheIndexNames(store));
    recorder.start();
    stops.add('timeline recorder', () => recorder.stop());
    // Copies of shard folders kept on this host, named on the status bar while they exist (loaded after the first polls).
    void import('../../services/kept-copies').then((m) => stops.add('copies kept', m.watchKeptCopies(store)));
    stops.add('fleet watcher', () => fleet.control.stop());
    stops.add('share server', () => sharing.stop('the leader quit'));
    const [{ Guard }, { createWizardServices }, { mountConsole }, { askClusterNameIn }] = await Promise.all([
      import('../../services/guard'),
      import('../../services/wizards'),
      import('../../ui/app/mount'),
      import('../../ui/components/ClusterNameAsk'),
    ]);
    // Every wizard's change goes through this one guard (preview, confirm, audit, verify).
    const guard = new Guard({
      client,
      conn,
      profile: profileName,
      platformUser: () => store.getState().platform.user,
      approver: sharing.approver,
      proposedBy: sharing.proposedBy,
      onLockWait: (h) => store.setState({ notice: h ? `waiting for another change to this cluster: ${describeHolder(h)}` : undefined }),
      // The profile's label in every preview; on production, the cluster's name asked over the wizard before data loss.
      ...(badge ? { badge, askClusterName: askClusterNameIn(ui) } : {}),
      // Issue 47 item 6: the panes show the cluster after the change at once, not a poll period later.
      onSent: () => void pollControl.refreshNow().catch(() => undefined),
    });
    const wizardServices = createWizardServices(es, guard, {
      serviceStop: profile?.serviceStop,
      serviceStart: profile?.serviceStart,
      hostSecrets: connectionSecrets(conn),
      engineUrl: conn.url,
      engineOverrides: profile,
    });
    holdAlternateScreen(stops);
    // The last frame drawn, for the screen dump (w); a copy the terminal cannot take goes to a file.
    const screen = frameKeeping(process.stdout);
    const files = consoleFiles(screen.lastFrame, profileName);
    // The first frame with the cluster's health in it, when the answer is about to come (at most
    // FIRST_FRAME_WAIT_MS later than an empty one).
    await snapshotRead(store, 'health', FIRST_FRAME_WAIT_MS);
    const mounted = await mountConsole(
      store,
      { poller: pollControl, ui, share: sharing.control, fleet: fleet.control, files },
      wizardServices,
      screen.stdout,
      // The command line runs the read commands on this connection (`:cat allocation`).
      lineCommands(commands, { profileName, profile, conn, ...(badge ? { badge } : {}) }, es),
    );
    instance = mounted;
    stops.add('console screen', () => mounted.unmount());
    if (values.share || shareGroup) await sharing.start();
    // Changes an earlier shardeck sent and never heard back from come first: their outcome is unknown.
    const unfinished = guard.unfinished().length;
    if (unfinished && conn.readOnly)
      store.setState({
        notice: `${unfinished} change(s) sent by a shardeck that stopped before their answer (read-only: shardeck audit --read-back reads them back)`,
      });
    else if (unfinished) ui.setState({ dialog: { kind: 'wizard', id: 'unfinished' }, filtering: false });
    offerAllocationRestore(es, store, ui, conn.readOnly);
    offerShrinkResume(es, store, ui, conn.readOnly);
    await mounted.waitUntilExit();
    const switchTo = fleet.switchTo();
    return switchTo === undefined ? undefined : { profile: switchTo, 'read-only': values['read-only'], interval: values.interval };
  } finally {
    stops.stopAll(reportStopFailure);
  }
}

/**
 * When shardeck left an allocation setting changed on this cluster (services/allocation-record.ts),
 * the console opens the dialog that puts it back (the Health pane's A opens it again); in
 * read-only mode the status bar says it. Asked once, after the first frame; a failure to ask is silent.
 */
function offerAllocationRestore(es: EsApi, store: ConsoleStore, ui: UiStore, readOnly: boolean): void {
  allocationLeft(es)
    .then(({ own, others, unread }) => {
      // Another operator's record is said, never offered: it is theirs (issue 40 N2).
      const foreign = [...others.map((l) => l.message), ...unread];
      if (!own) {
        if (foreign.length) store.setState({ notice: foreign.join('; ') });
        return;
      }
      if (readOnly) store.setState({ notice: `${own.message} (read-only: shardeck allocation restore puts it back)` });
      else if (!ui.getState().dialog) ui.setState({ dialog: { kind: 'wizard', id: 'allocationRestore' }, filtering: false });
    })
    .catch(() => undefined);
}

/**
 * A right-sizing of this operator's left unfinished (killed, a dropped session): the console opens
 * its wizard, which names the index and step and goes on or rolls back (the Indices pane's S opens
 * it again); read-only, or a temporary copy no run of theirs names, the status bar says it.
 */
function offerShrinkResume(es: EsApi, store: ConsoleStore, ui: UiStore, readOnly: boolean): void {
  shrinkLeft(es)
    .then(({ own, lines }) => {
      if (!lines.length) return;
      if (own && !readOnly && !ui.getState().dialog) ui.setState({ dialog: { kind: 'wizard', id: 'shrink' }, filtering: false });
      else store.setState({ notice: `${lines.join('; ')}${readOnly && own ? ' (read-only: shardeck shrink --resume goes on)' : ''}` });
    })
    .catch(() => undefined);
}
