// What every answer from the cluster goes through: no redirect is followed or read as an answer,
// and a cap on its size: a node (or whatever answers at its address) could
// send a gzip bomb or a table that never ends, and shardeck often runs as root on a storage node
// where the OOM killer would pick a neighbour. The cap counts the bytes received and, for a
// compressed answer, the bytes it inflates to; past it the read stops with one sentence.
import zlib from 'node:zlib';

/** The default cap (MB): ten times the _cat/indices answer of 100,000 indices (~20 MB). */
export const DEFAULT_MAX_ANSWER_MB = 256;
export const MAX_ANSWER_ENV = 'SHARDECK_MAX_ANSWER_MB';

/** The cap in bytes: SHARDECK_MAX_ANSWER_MB when set to a positive number, else the default. */
export function answerCapBytes(): number {
  const mb = Number(process.env[MAX_ANSWER_ENV]);
  return Math.floor((Number.isFinite(mb) && mb > 0 ? mb : DEFAULT_MAX_ANSWER_MB) * 1024 * 1024);
}

const capMb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 100) / 100;

/** An answer past the cap: classifyError passes it through as it is (its message is the sentence). */
export class AnswerTooBigError extends Error {
  constructor(
    readonly cap: number,
    what: string,
  ) {
    super(
      `the answer to ${what} is bigger than shardeck's cap of ${capMb(cap)} MB${' '}(counted after decompression): stopped reading it; if the cluster is really that big, raise the cap with ${MAX_ANSWER_ENV}=${Math.max(DEFAULT_MAX_ANSWER_MB, capMb(cap) * 4)}`,
    );
    this.name = 'AnswerTooBigError';
  }
}

/** A 3xx from the node: shardeck sends its credentials only to the address it was given. */
export class RedirectRefusedError extends Error {
  constructor(
    readonly status: number,
    location: string,
    what: string,
  ) {
    super(
      `answered ${status} to ${what}, redirecting to ${location.replace(/(\/\/)[^@/]*@/, '$1') || 'nowhere'}: shardeck does not follow redirects (the credentials would go along); give the final address in --url`,
    );
    this.name = 'RedirectRefusedError';
  }
}

/** Counts bytes against the cap; throws once past it. */
export class AnswerMeter {
  private n = 0;
  constructor(
    readonly cap: number,
    readonly what: string,
  ) {}
  add(bytes: number): void {
    this.n += bytes;
    if (this.n > this.cap) throw new AnswerTooBigError(this.cap, this.what);
  }
}

/** Inflates a gzip/deflate body to at most `cap` bytes. */
export function inflateCapped(body: Buffer, encoding: string, cap: number, what: string): Buffer {
  try {
    // maxOutputLength stops zlib itself: the bomb's expansion is never held past the cap.
    return encoding.includes('gzip') ? zlib.gunzipSync(body, { maxOutputLength: cap }) : zlib.inflateSync(body, { maxOutputLength: cap });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) throw new AnswerTooBigError(cap, what);
    throw e;
  }
}

/** Stops reading an answer: its stream destroyed, the abort that follows expected (not an unhandled error). */
export function hangUp(body: { destroy(): void; on?: (ev: string, f: () => void) => void }): void {
  body.on?.('error', () => undefined);
  body.destroy();
}
