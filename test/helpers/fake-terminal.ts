// A terminal for Ink without a terminal: a stdout of a fixed size that keeps what was written, and
// a raw-mode stdin that keys can be typed into. The UI tests and the render benchmark share it.
import { EventEmitter } from 'node:events';

export class FakeStdout extends EventEmitter {
  isTTY = false;
  frames: string[] = [];
  /** Called after every write (the benchmark times frames with it). */
  onWrite?: () => void;
  /** keep 'last' holds one frame only, so a benchmark's memory is the console's, not ours. */
  constructor(
    public columns = 80,
    public rows = 24,
    private readonly keep: 'all' | 'last' = 'all',
  ) {
    super();
  }
  get last(): string {
    return this.frames.at(-1) ?? '';
  }
  write = (frame: string) => {
    if (this.keep === 'last') this.frames.length = 0;
    this.frames.push(frame);
    this.onWrite?.();
    return true;
  };
}

export class FakeStdin extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write(data: string) {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  }
  read = () => {
    const d = this.data;
    this.data = null;
    return d;
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}
