// Sharing the console (s, --share): the share server while it runs, a follower's proposal opened
// for review, and the four-eyes approver the Guard asks. The console stops it through its stop list.
// Sharing and the guard's code load when first used (not needed for the console's first frame).
import type { Approver } from '../../services/guard';
import type { FocusSource, ShareServer } from '../../services/share-server';
import type { TimelineRecorder } from '../../services/timeline';
import type { ConsoleStore } from '../../store/console';
import type { ShareControl } from '../../ui/app/context';
import type { UiStore } from '../../ui/state';
import type { ProposedSelection } from '../../domain/share';

export interface ConsoleSharing {
  control: ShareControl;
  approver: Approver;
  /** The follower whose proposal is open for review: the audit names them. */
  proposedBy: () => string | undefined;
  start: () => Promise<void>;
  /** Ends sharing with the reason the followers see; removes the socket before it returns. */
  stop: (reason?: string) => Promise<void>;
}

export function consoleSharing(
  store: ConsoleStore,
  ui: UiStore,
  recorder: TimelineRecorder,
  opts: { group: string | undefined; requireApproval: boolean; readOnly: boolean },
): ConsoleSharing {
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
    const { WIZARDS } = await import('../../ui/wizards/registry');
    const entry = WIZARDS.find((w) => w.id === wizard);
    const say = (notice: string) => store.setState((s) => ({ share: s.share ? { ...s.share, message: notice } : s.share }));
    if (!entry) return say(`${author} proposed an unknown change (${wizard}): ignored`);
    if (opts.readOnly) return say(`${author} proposed: ${entry.title}; this console is read-only`);
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
  const start = async () => {
    if (server) return;
    const { ShareServer } = await import('../../services/share-server');
    if (server) return; // started while it loaded
    server = new ShareServer(store, {
      group: opts.group,
      requireApproval: opts.requireApproval,
      focus,
      onNote: (author, text) => recorder.addNote(author, text),
      onPropose: (a, w, s) => void onPropose(a, w, s),
    });
    try {
      await server.start();
    } catch (e) {
      server = undefined;
      store.setState({ notice: `cannot share: ${(e as Error).message}` });
    }
  };
  const stop = async (reason?: string) => {
    const s = server;
    server = undefined;
    await s?.stop(reason);
  };
  const approver: Approver = {
    required: opts.requireApproval,
    approve: async (req) => {
      if (server) return server.approve(req);
      const { GuardRefusal } = await import('../../services/guard');
      throw new GuardRefusal(
        'unapproved',
        "this change needs a follower's approval (--require-approval) and this console is not shared: nothing was sent; press s to share it, then a second operator runs shardeck follow",
      );
    },
  };
  const control: ShareControl = {
    toggleShare: () => void (server ? stop() : start()),
    addNote: (text) => void import('../../services/guard').then((g) => recorder.addNote(g.hostUser(), text)),
  };
  return { control, approver, proposedBy: () => proposer, start, stop };
}
