// The live console (the default command): polls the node outside React and renders the panes.
// The terminal is always given back: on q, on Ctrl-C, on SIGTERM/SIGHUP and on a crash.
import { UsageError } from '../config/connection';
import { saveIndexNames } from '../config/completion-cache';
import { createConsoleStore } from '../store/console';
import { Poller } from '../services/poller';
import { IndexDetailPoller } from '../services/index-detail';
import { platformOnHost, runDoctorInto } from '../services/doctor';
import { createEsApi } from '../cluster/api';
import { closeClient, type ConnError } from '../cluster/connection';
import { Guard } from '../services/guard';
import { createWizardServices } from '../services/wizards';
import { connectionSecrets } from '../domain/host-env';
import { startPlatformSignIn } from '../services/platform-sign-in';
import { ENTER_ALT_SCREEN, LEAVE_ALT_SCREEN, SHOW_CURSOR } from './screen';
import { FleetReader, FleetWatcher, fleetTargets } from '../services/fleet';
import { createFleetStore } from '../store/fleet';
import type { FleetControl } from '../ui/app/context';
import { EXIT, openConnection, type CommandModule, type CommandContext } from './common';
import { createUiStore } from '../ui/state';
import { GuardRefusal, hostUser, type Approver } from '../services/guard';
import { ShareServer, type FocusSource } from '../services/share-server';
import { TimelineRecorder } from '../services/timeline';
import { describeHolder } from '../config/cluster-lock';
import type { ShareControl } from '../ui/app/context';
import type { ProposedSelection } from '../domain/share';
import { err } from './output';


export const MIN_INTERVAL_S = 1;

/** Keeps the shell completion's index names (config/completion-cache.ts) up to date with each poll. */
function cacheIndexNames(store: ReturnType<typeof createConsoleStore>): () => void {
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

export function parseInterval(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const s = Number(raw);
  if (!Number.isFinite(s) || s < MIN_INTERVAL_S) {
    throw new UsageError(`--interval "${raw}" is not a number of seconds: give ${MIN_INTERVAL_S} or more, e.g. --interval 5`);
  }
  return Math.round(s * 1000);
}

const tui: CommandModule = {
  summary: 'the live console: health, indices, shards, disk and nodes of the storage node, refreshed every few seconds',
  usage:
    'usage: shardeck [tui] [--url URL] [--user NAME --password-env VAR|--password-file F] [--ca FILE] [--insecure] [--profile NAME] [--read-only] [--interval SECONDS] [--share [--share-group GROUP]] [--require-approval]',
  options: { interval: { type: 'string' }, share: { type: 'boolean' }, 'share-group': { type: 'string' }, 'require-approval': { type: 'boolean' } },
  group: 'watch',
  flagHelp: {
    interval: "seconds between polls (default: the profile's, else 5; 1 or more)",
    share: 'share this console from the start on a Unix socket (0600; s toggles it in the console); followers run shardeck follow',
    'share-group': 'let this group follow too (socket 0660, folder 0710); default: only your own user',
    'require-approval': "four eyes: every change waits for a follower to approve the same preview (or the profile's requireApproval)",
  },
  examples: ['shardeck', 'shardeck --profile prod --read-only', 'shardeck --share --share-group elasticsearch --require-approval'],
  async run({ values }) {
    const intervalMs = parseInterval(values.interval as string | undefined);
    if (!process.stdout.isTTY || process.env.TERM === 'dumb') {
      // A pipe, cron, or a terminal that cannot move the cursor: the status text (and its exit code) is what it can use.
      err(
        `shardeck: the console needs a terminal${process.stdout.isTTY ? ' that can move the cursor (TERM is dumb)' : ''}; printing \`shardeck status\` instead (use it with --json in scripts)\n`,
      );
      const { default: status } = await import('./status');
      return status.run({ values, positionals: [] });
    }
    if (!process.stdin.isTTY) {
      err('shardeck: the console needs a terminal to read keys from; for scripts and checks use `shardeck status` (with --json)\n');
      return EXIT.usage;
    }
    // Enter in the Fleet view leaves this console for another profile's: the same process opens
    // that profile's connection (its own password source, never the one of the profile before).
    let next: CommandContext['values'] | number | undefined = values;
    while (next && typeof next === 'object') next = await runConsole(next, intervalMs);
    return typeof next === 'number' ? next : EXIT.ok;
  },
};

/** One console on one connection; the flags of the next console when the operator switched profile. */
async function runConsole(values: CommandContext['values'], intervalMs: number | undefined): Promise<CommandContext['values'] | number | undefined> {
  const { client, conn, where, profileName, profile } = await openConnection(values);
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
  const store = createConsoleStore({
    connection: { url: where, profile: profileName, user: conn.user, insecure: Boolean(conn.insecure), readOnly: conn.readOnly },
    ...(profile?.templateVersion ? { templateVersion: profile.templateVersion } : {}),
    ...((intervalMs ?? profile?.intervalMs) ? { intervalMs: intervalMs ?? profile?.intervalMs } : {}),
  });
  const poller = new Poller(es, store);
  // The index detail's reads, only while it is open (Enter on an Indices row).
  const detail = new IndexDetailPoller(es, store);
  // The refresh key reads the open index detail again too.
  // What the panes may ask beyond the poll: the refresh key (the open index detail too), the verbose health report, the doctor's checks.
  const pollControl = {
    refreshNow: () => Promise.all([poller.refreshNow(), detail.refreshNow()]).then(() => undefined),
    diagnose: () => poller.diagnose(),
    doctor: () => runDoctorInto(store, es, { scheme: conn.url.startsWith('https:') ? 'https' : 'http', platformOnHost: platformOnHost(profile) }),
  };
  const ui = createUiStore();
  // The incident timeline: health transitions as this console sees them, notes, and every change in the audit log.
  const recorder = new TimelineRecorder(store, where);
  const requireApproval = Boolean(values['require-approval'] || profile?.requireApproval);
  const shareGroup = values['share-group'] as string | undefined;
  let server: ShareServer | undefined;
  // A follower's proposal opens its wizard here for review; the audit names the follower while it is open.
  let proposer: string | undefined;
  ui.subscribe((u) => {
    if (u.dialog || !proposer) return;
    store.setState((s) => ({ share: s.share ? { ...s.share, message: `${proposer}'s proposal closed` } : s.share }));
    proposer = undefined;
  });
  const onPropose = async (author: string, wizard: string, selection: ProposedSelection) => {
    // The wizards' registry is UI code, loaded with the console after the first polls went out.
    const { WIZARDS } = await import('../ui/wizards/registry');
    const entry = WIZARDS.find((w) => w.id === wizard);
    const say = (notice: string) => store.setState((s) => ({ share: s.share ? { ...s.share, message: notice } : s.share }));
    if (!entry) return say(`${author} proposed an unknown change (${wizard}): ignored`);
    if (conn.readOnly) return say(`${author} proposed: ${entry.title}; this console is read-only`);
    if (ui.getState().dialog) return say(`${author} proposed: ${entry.title}; finish what is open first, then ask again`);
    proposer = author;
    ui.setState((u) => ({ selection: { ...u.selection, ...selection }, dialog: { kind: 'wizard', id: entry.id }, filtering: false }));
    say(`${author} proposes: ${entry.title}; review it (Esc closes)`);
  };
  const focus: FocusSource = {
    get: () => {
      const u = ui.getState();
      return { pane: store.getState().pane, tables: u.tables, showSystem: u.showSystem, problemsOnly: u.problemsOnly };
    },
    subscribe: (cb) => {
      let pane = store.getState().pane;
      const a = store.subscribe((st) => {
        if (st.pane !== pane) {
          pane = st.pane;
          cb();
        }
      });
      let u = ui.getState();
      const b = ui.subscribe((next) => {
        if (next.tables !== u.tables || next.showSystem !== u.showSystem || next.problemsOnly !== u.problemsOnly) cb();
        u = next;
      });
      return () => {
        a();
        b();
      };
    },
  };
  const startSharing = async () => {
    if (server) return;
    server = new ShareServer(store, { group: shareGroup, requireApproval, focus, onNote: (author, text) => recorder.addNote(author, text), onPropose: (a, w, s) => void onPropose(a, w, s) });
    try {
      await server.start();
    } catch (e) {
      server = undefined;
      store.setState({ notice: `cannot share: ${(e as Error).message}` });
    }
  };
  const stopSharing = async () => {
    const s = server;
    server = undefined;
    await s?.stop();
  };
  const approver: Approver = {
    required: requireApproval,
    approve: (req) =>
      server
        ? server.approve(req)
        : Promise.reject(new GuardRefusal('unapproved', 'this change needs a follower\'s approval (--require-approval) and this console is not shared: nothing was sent; press s to share it, then a second operator runs shardeck follow')),
  };
  const share: ShareControl = {
    toggleShare: () => void (server ? stopSharing() : startSharing()),
    addNote: (text) => recorder.addNote(hostUser(), text),
  };
  // Signs in to the platform when the profile has one (header user@tenant, project names).
  const platform = startPlatformSignIn(store, profileName, profile);
  // Every wizard's change goes through this one guard (preview, confirm, audit, verify).
  const guard = new Guard({
    client,
    conn,
    profile: profileName,
    platformUser: () => store.getState().platform.user,
    approver,
    proposedBy: () => proposer,
    onLockWait: (h) => store.setState({ notice: h ? `waiting for another change to this cluster: ${describeHolder(h)}` : undefined }),
  });
  const wizardServices = createWizardServices(es, guard, {
    serviceStop: profile?.serviceStop,
    serviceStart: profile?.serviceStart,
    hostSecrets: connectionSecrets(conn),
    engineUrl: conn.url,
    engineOverrides: profile,
  });

  // The Fleet view (F): every saved profile's cluster, read only while the view is open.
  let switchTo: string | undefined;
  let watcher: FleetWatcher | undefined;
  const fleetStore = createFleetStore();
  const fleet: FleetControl = {
    store: fleetStore,
    start: () => {
      watcher = new FleetWatcher(new FleetReader(fleetTargets()), fleetStore);
      watcher.start();
    },
    stop: () => {
      void watcher?.stop();
      watcher = undefined;
    },
    open: (name) => {
      switchTo = name;
      instance?.unmount();
    },
  };

  // The first polls go out before React, Ink and the panes are loaded: their code (~0.9 MB)
  // is compiled while the node answers, so the first frame can already show live data.
  poller.start();
  // Set once the console is mounted; restore() and the Fleet view may run before that.
  let instance: { unmount: () => void; waitUntilExit: () => Promise<unknown> } | undefined = undefined;
  let restored = false;
  let onAltScreen = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    poller.stop();
    detail.stop();
    platform.stop();
    fleet.stop();
    recorder.stop();
    void server?.stop('the leader quit');
    instance?.unmount();
    if (onAltScreen) process.stdout.write(SHOW_CURSOR + LEAVE_ALT_SCREEN);
  };
  const crash = (e: unknown) => {
    restore();
    err(`shardeck: the console crashed: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exit(70);
  };
  const signal = () => {
    restore();
    process.exit(130);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  process.on('SIGTERM', signal);
  process.on('SIGHUP', signal);

  detail.start();
  const stopIndexCache = cacheIndexNames(store);
  recorder.start();
  const { mountConsole } = await import('../ui/app/mount');
  process.stdout.write(ENTER_ALT_SCREEN);
  onAltScreen = true;
  instance = mountConsole(store, { poller: pollControl, ui, share, fleet }, wizardServices);
  if (values.share || shareGroup) await startSharing();
  try {
    await instance.waitUntilExit();
  } finally {
    restore();
    stopIndexCache();
    void client.close();
    process.off('uncaughtException', crash);
    process.off('unhandledRejection', crash);
    process.off('SIGTERM', signal);
    process.off('SIGHUP', signal);
  }
  return switchTo === undefined ? undefined : { profile: switchTo, 'read-only': values['read-only'], interval: values.interval };
}


export default tui;
