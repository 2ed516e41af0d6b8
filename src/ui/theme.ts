// Colours on screen carry meaning (green fine, yellow attention, red act now) and go away with
// NO_COLOR (no-color.org). Ink's chalk does not read NO_COLOR itself, so every colour passes here.
import type { Tone } from '../domain/text/format';

export function colourEnabled(): boolean {
  return !process.env.NO_COLOR;
}

/** The Ink colour for a tone, or undefined (no colour) under NO_COLOR. */
export function colourOf(tone: Tone | undefined): string | undefined {
  if (!tone || !colourEnabled()) return undefined;
  return tone;
}
