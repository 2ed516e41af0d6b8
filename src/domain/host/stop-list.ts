// One list of what a long-running command started and how to stop each: stopped in reverse order
// of start on every way out (q, Ctrl-C, a signal, an exception), each once, and a stop that fails
// does not keep the others from running. Pure: it calls the stops it was given, nothing else.

export interface StopFailure {
  name: string;
  error: unknown;
}

interface Entry {
  name: string;
  stop: () => unknown;
}

export class StopList {
  private entries: Entry[] = [];

  /** Registers the stop of something just started: the last started is the first stopped. */
  add(name: string, stop: () => unknown): void {
    this.entries.push({ name, stop });
  }

  /** The names of what is still running, in the order it started. */
  get running(): string[] {
    return this.entries.map((e) => e.name);
  }

  /**
   * Runs every stop, last started first, each once (a second call, or one from inside a stop,
   * finds nothing left). A stop that throws is reported and the next one still runs; one that
   * returns a promise is not waited for, and its rejection is reported to onFailure too.
   * Returns the synchronous failures.
   */
  stopAll(onFailure: (f: StopFailure) => void = () => {}): StopFailure[] {
    const failures: StopFailure[] = [];
    while (this.entries.length) {
      const { name, stop } = this.entries.pop()!;
      try {
        const result = stop();
        if (result instanceof Promise) result.catch((error: unknown) => onFailure({ name, error }));
      } catch (error) {
        failures.push({ name, error });
        onFailure({ name, error });
      }
    }
    return failures;
  }
}
