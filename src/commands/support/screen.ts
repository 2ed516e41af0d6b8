// The full-screen consoles (tui, follow) draw on the terminal's alternate screen, so the shell's
// screen comes back on exit, with the cursor shown again, on every way out.
import type { StopFailure, StopList } from '../../domain/host/stop-list';
import { err } from './output';

export const ENTER_ALT_SCREEN = '\u001b[?1049h';
export const LEAVE_ALT_SCREEN = '\u001b[?1049l';
export const SHOW_CURSOR = '\u001b[?25h';

/**
 * Until the stop list runs: a signal (SIGTERM, the SIGHUP of a dropped SSH session) or a crash
 * runs the whole list (the terminal given back among it), then exits. Registered on the list
 * itself, so the handlers go when everything else has stopped.
 */
export function exitThroughStops(stops: StopList, what: string): void {
  const crash = (e: unknown) => {
    stops.stopAll(reportStopFailure);
    err(`shardeck: the ${what} crashed: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exit(70);
  };
  const signal = () => {
    stops.stopAll(reportStopFailure);
    process.exit(130);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  process.on('SIGTERM', signal);
  process.on('SIGHUP', signal);
  stops.add('signal handlers', () => {
    process.off('uncaughtException', crash);
    process.off('unhandledRejection', crash);
    process.off('SIGTERM', signal);
    process.off('SIGHUP', signal);
  });
}

/** Draws on the alternate screen until the stop list gives the shell's screen back, cursor shown. */
export function holdAlternateScreen(stops: StopList): void {
  process.stdout.write(ENTER_ALT_SCREEN);
  stops.add('alternate screen', () => process.stdout.write(SHOW_CURSOR + LEAVE_ALT_SCREEN));
}

/** A stop that failed is said after the terminal is back, and the others ran anyway. */
export function reportStopFailure(f: StopFailure): void {
  err(`shardeck: stopping the ${f.name} failed: ${(f.error as Error)?.message ?? f.error}\n`);
}
