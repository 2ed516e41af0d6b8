// `--via search_curl`: every request of the Elasticsearch client goes through the node's wrapper
// (a child process per request), so shardeck holds no password and no CA. The argv comes from the
// same builder the previews print (domain/mutation/preview.ts searchCurlArgv); -sS -i ask curl for quiet
// errors and the response head, from which status and headers are read.
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { ConnectionError, RequestAbortedError, TimeoutError } from '@elastic/transport/errors';
import { signalGroup, startProgram } from '../boundary/programs';
import { hostCommandEnv } from '../domain/host/host-env';
import { AnswerMeter, answerCapBytes, inflateCapped } from './answer-cap';
import { searchCurlArgv, type SearchCurl } from '../domain/mutation/preview';
import type { Sender } from './transport';

/** Splits curl -i output: skips 1xx heads, returns the final status, headers and body. */
export function parseCurlResponse(out: Buffer): { statusCode: number; headers: IncomingHttpHeaders; body: Buffer } {
  let rest = out;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error("search_curl printed no HTTP response head (the wrapper must pass curl's -i through)");
    const head = rest.subarray(0, end).toString('latin1').split('\r\n');
    const status = /^HTTP\/[\d.]+ (\d{3})/.exec(head[0] ?? '');
    if (!status) throw new Error(`search_curl printed "${(head[0] ?? '').slice(0, 60)}" where an HTTP status line was expected`);
    rest = rest.subarray(end + 4);
    const statusCode = Number(status[1]);
    if (statusCode >= 100 && statusCode < 200) continue;
    const headers: IncomingHttpHeaders = {};
    for (const line of head.slice(1)) {
      const i = line.indexOf(':');
      if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    return { statusCode, headers, body: rest };
  }
}

/** A Sender (cluster/transport.ts) that runs the wrapper once per request; the answer is read whole (asStream too). */
export function searchCurlSender(sc: SearchCurl, url: string): Sender {
  return {
    close() {},
    async send(params, options) {
      const body = params.body;
      const [path, query = ''] = params.path.split(/\?(.*)/s);
      const [command, ...args] = searchCurlArgv(
        { method: params.method as 'GET', path: path, querystring: Object.fromEntries(new URLSearchParams(query)) },
        url,
        sc,
      );
      // The client's own headers (the compatible-with=8 media types) go along; the body goes on stdin.
      const headerArgs = Object.entries(params.headers ?? {}).flatMap(([k, v]) =>
        v === undefined || /^(user-agent|content-length)$/i.test(k) ? [] : ['-H', `${k}: ${String(v)}`],
      );
      const argv = ['-sS', '-i', ...args, ...headerArgs, ...(body !== undefined ? ['--data-binary', '@-'] : [])];
      const timeoutMs = options.timeoutMs;
      return new Promise((resolve, reject) => {
        // No variable that holds a secret (a platform token, ELASTIC_PASSWORD) goes to the wrapper.
        const child = startProgram(command, argv, { stdin: 'pipe', env: hostCommandEnv(process.env, { envNames: [], values: [] }) });
        const out: Buffer[] = [];
        let err = '';
        let settled = false;
        const finish = (f: () => void) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', abort);
          f();
        };
        const timer = setTimeout(() => {
          signalGroup(child, 'SIGKILL');
          finish(() => reject(new TimeoutError('Request timed out')));
        }, timeoutMs);
        const abort = () => {
          signalGroup(child, 'SIGKILL');
          finish(() => reject(new RequestAbortedError('Request aborted')));
        };
        options.signal?.addEventListener('abort', abort);
        // The answer's head and body within the size cap: a wrapper that never stops is killed.
        const meter = new AnswerMeter(answerCapBytes(), `${params.method} ${params.path}`);
        child.stdout!.on('data', (d: Buffer) => {
          try {
            meter.add(d.length);
            out.push(d);
          } catch (e) {
            signalGroup(child, 'SIGKILL');
            finish(() => reject(e instanceof Error ? e : new Error(String(e)))); // AnswerMeter's cap error
          }
        });
        child.stderr!.on('data', (d) => (err += d));
        child.on('error', (e) => finish(() => reject(new ConnectionError(`${command} could not be run: ${e.message}`))));
        child.on('close', (code) => {
          if (code !== 0) {
            // curl's exit 7 is "could not connect": keep that recognisable for the unreachable message.
            const why = err.trim().split('\n').pop() ?? '';
            return finish(() =>
              reject(new ConnectionError(`${code === 7 ? 'ECONNREFUSED ' : ''}${command} exited ${code}${why ? `: ${why}` : ''}`)),
            );
          }
          try {
            const r = parseCurlResponse(Buffer.concat(out));
            const encoding = String(r.headers['content-encoding'] ?? '').toLowerCase();
            let answer = r.body;
            if (encoding.includes('gzip') || encoding.includes('deflate')) {
              // Inflated here within the cap; the transport must not inflate it again.
              answer = inflateCapped(answer, encoding, answerCapBytes(), `${params.method} ${params.path}`);
              delete r.headers['content-encoding'];
            }
            finish(() =>
              resolve({
                statusCode: r.statusCode,
                headers: r.headers,
                body: options.asStream ? Readable.from([answer]) : answer.toString('utf8'),
              }),
            );
          } catch (e) {
            finish(() => reject(new ConnectionError((e as Error).message)));
          }
        });
        child.stdin!.on('error', () => undefined);
        child.stdin!.end(body ?? '');
      });
    },
  };
}
