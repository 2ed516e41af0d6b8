// What the read-only inspect commands share (mappings, settings, stats, cat): the facade over one
// connection, and "not found" (exit 5) said the same way with or without --json.
import { createEsApi, type EsApi } from '../../cluster/api';
import { closeClient } from '../../cluster/connection';
import { EXIT, openConnection, type CommandContext } from './common';
import { JSON_SCHEMA, printJson, reportFailure } from './guarded';
import { err } from './output';
import { displayText } from '../../domain/text/display-text';

/** The facade for reads over one connection (no Guard: these commands change nothing). */
export async function openReads(values: CommandContext['values']): Promise<{ es: EsApi; close: () => Promise<void> }> {
  const s = await openConnection(values);
  return { es: createEsApi(s.client, s.conn.url), close: () => closeClient(s.client) };
}

/** Runs `body` with the facade; a connection failure or refusal becomes its sentence and exit code; the client is closed either way. */
export async function withReads(
  command: string,
  values: CommandContext['values'],
  json: boolean,
  body: (es: EsApi) => Promise<number>,
): Promise<number> {
  const { es, close } = await openReads(values);
  try {
    return await body(es);
  } catch (e) {
    return reportFailure(command, e, json);
  } finally {
    await close();
  }
}

/** Nothing matched what was asked for: one sentence on stderr (and the --json error), exit 5. */
export function notFound(command: string, message: string, json: boolean, extra: object = {}): number {
  if (json) printJson({ schema: JSON_SCHEMA, command, ok: false, notFound: true, error: message, ...extra });
  err(`shardeck ${command}: ${displayText(message)}\n`);
  return EXIT.failed;
}
