// The Fleet view (F): every saved profile's cluster, read only while the view is open; Enter on
// a profile leaves this console for that profile's (the console returns its name).
import type { FleetWatcher } from '../../services/fleet';
import { createFleetStore } from '../../store/fleet';
import type { FleetControl } from '../../ui/app/context';

export interface ConsoleFleet {
  control: FleetControl;
  /** The profile the operator chose to switch to, if any. */
  switchTo: () => string | undefined;
}

/** `leave` ends this console (Ink's unmount) once a profile was chosen. */
export function consoleFleet(leave: () => void): ConsoleFleet {
  let switchTo: string | undefined;
  let watcher: FleetWatcher | undefined;
  let open = false;
  const store = createFleetStore();
  const control: FleetControl = {
    store,
    start: () => {
      open = true;
      // The fleet's code loads when the view first opens.
      void import('../../services/fleet').then(({ FleetReader, FleetWatcher, fleetTargets }) => {
        if (!open || watcher) return; // closed again (or started) while it loaded
        watcher = new FleetWatcher(new FleetReader(fleetTargets()), store);
        watcher.start();
      });
    },
    stop: () => {
      open = false;
      void watcher?.stop();
      watcher = undefined;
    },
    open: (name) => {
      switchTo = name;
      leave();
    },
  };
  return { control, switchTo: () => switchTo };
}
