// `--via search_curl`: every request of the Elasticsearch client goes through the node's wrapper
// (a child process per request), so shardeck holds no password and no CA. The argv comes from the
// same builder the previews print (domain/mutation.ts searchCurlArgv); -sS -i ask curl for quiet
// errors and the response head, from which status and headers are read.
import { spawn } from 'node:child_process';
import type { IncomingHttpHeaders } from 'node:http';
import { BaseConnection, errors, type ConnectionRequestOptions, type ConnectionRequestParams, type ConnectionRequestResponse } from '@elastic/elasticsearch';
import { hostCommandEnv } from '../domain/host-env';
import { AnswerMeter, answerCapBytes, inflateCapped } from './answer-cap';
import { searchCurlArgv, type SearchCurl } from '../domain/mutation';

/** Splits curl -i output: skips 1xx heads, returns the final status, headers and body. */
export function parseCurlResponse(out: Buffer): { statusCode: number; headers: IncomingHttpHeaders; body: Buffer } {
  let rest = out;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error('search_curl printed no HTTP response head (the wrapper must pass curl\'s -i through)');
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

export function searchCurlConnection(sc: SearchCurl): typeof BaseConnection {
  class SearchCurlConnection extends BaseConnection {
    // @ts-expect-error the stream overload (asStream) is never asked for by the client as shardeck uses it
    async request(params: ConnectionRequestParams, options: ConnectionRequestOptions): Promise<ConnectionRequestResponse> {
      const body = params.body == null ? undefined : typeof params.body === 'string' || Buffer.isBuffer(params.body) ? params.body : undefined;
      const [command, ...args] = searchCurlArgv(
        { method: params.method as 'GET', path: params.path, querystring: Object.fromEntries(new URLSearchParams(params.querystring ?? '')) },
        this.url.toString(),
        sc,
      );
      // The client's own headers (the compatible-with=8 media types) go along; the body goes on stdin.
      const headerArgs = Object.entries(params.headers ?? {}).flatMap(([k, v]) => (v === undefined || /^(user-agent|content-length)$/i.test(k) ? [] : ['-H', `${k}: ${String(v)}`]));
      const argv = ['-sS', '-i', ...args, ...headerArgs, ...(body !== undefined ? ['--data-binary', '@-'] : [])];
      const timeoutMs = options.timeout ?? this.timeout ?? 30_000;
      return new Promise((resolve, reject) => {
        // No variable that holds a secret (a platform token, ELASTIC_PASSWORD) goes to the wrapper.
        const child = spawn(command, argv, { stdio: ['pipe', 'pipe', 'pipe'], env: hostCommandEnv(process.env, { envNames: [], values: [] }) });
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
          child.kill('SIGKILL');
          finish(() => reject(new errors.TimeoutError('Request timed out')));
        }, timeoutMs);
        const abort = () => {
          child.kill('SIGKILL');
          finish(() => reject(new errors.RequestAbortedError('Request aborted')));
        };
        options.signal?.addEventListener('abort', abort);
        // The answer's head and body within the size cap: a wrapper that never stops is killed.
        const meter = new AnswerMeter(answerCapBytes(), `${params.method} ${params.path}`);
        child.stdout.on('data', (d: Buffer) => {
          try {
            meter.add(d.length);
            out.push(d);
          } catch (e) {
            child.kill('SIGKILL');
            finish(() => reject(e instanceof Error ? e : new Error(String(e)))); // AnswerMeter's cap error
          }
        });
        child.stderr.on('data', (d) => (err += d));
        child.on('error', (e) => finish(() => reject(new errors.ConnectionError(`${command} could not be run: ${e.message}`))));
        child.on('close', (code) => {
          if (code !== 0) {
            // curl's exit 7 is "could not connect": keep that recognisable for the unreachable message.
            const why = err.trim().split('\n').pop() ?? '';
            return finish(() => reject(new errors.ConnectionError(`${code === 7 ? 'ECONNREFUSED ' : ''}${command} exited ${code}${why ? `: ${why}` : ''}`)));
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
            finish(() => resolve({ statusCode: r.statusCode, headers: r.headers, body: answer.toString('utf8') }));
          } catch (e) {
            finish(() => reject(new errors.ConnectionError((e as Error).message)));
          }
        });
        child.stdin.on('error', () => undefined);
        child.stdin.end(body ?? '');
      });
    }
  }
  return SearchCurlConnection as unknown as typeof BaseConnection;
}
