// A label and a colour per profile (`profiles save NAME --label PROD --color red`): production
// looks different from staging in every header, preview and confirmation, so a change meant for
// one is not confirmed on the other by habit. The label is also text ([PROD]): it stays under
// NO_COLOR, in a screen dump and in a pasted transcript.

/** The colours a profile may take (every terminal's basic eight, less black and white). */
export const PROFILE_COLOURS = ['red', 'yellow', 'green', 'blue', 'magenta', 'cyan'] as const;
export type ProfileColour = (typeof PROFILE_COLOURS)[number];

/** A label is a short word: it must fit the header at 80 columns beside the cluster's name. */
export const MAX_LABEL = 12;

export interface ProfileBadge {
  /** Checked when saved (labelProblem); a config.json edited by hand is checked again in profileBadge. */
  label: string;
  colour?: ProfileColour;
  /** A data-loss confirmation also asks for the cluster's name. */
  production: boolean;
}

/** Why a label cannot be saved, or null. */
export function labelProblem(label: string): string | null {
  if (!/^[A-Za-z0-9_.-]+$/.test(label) || label.length > MAX_LABEL)
    return `--label "${label.slice(0, 40)}" is not a label: up to ${MAX_LABEL} letters, digits, "_", "-" or "." (e.g. --label PROD)`;
  return null;
}

export function isProfileColour(c: unknown): c is ProfileColour {
  return typeof c === 'string' && (PROFILE_COLOURS as readonly string[]).includes(c);
}

/** Why a colour cannot be saved, or null. */
export function colourProblem(colour: string): string | null {
  return isProfileColour(colour) ? null : `--color "${colour.slice(0, 40)}" is not one of ${PROFILE_COLOURS.join(', ')}`;
}

/**
 * The badge of a profile as stored, or undefined when it has none. A production profile without
 * a label is labelled PROD: it must never look like the others. What a hand-edited file holds that
 * labelProblem would refuse is not shown (a label is drawn on every screen).
 */
export function profileBadge(p: { label?: unknown; color?: unknown; production?: unknown } | undefined): ProfileBadge | undefined {
  if (!p) return undefined;
  const production = p.production === true;
  const label = typeof p.label === 'string' && labelProblem(p.label) === null ? p.label : production ? 'PROD' : undefined;
  if (label === undefined) return undefined;
  return { label, ...(isProfileColour(p.color) ? { colour: p.color } : production ? { colour: 'red' as const } : {}), production };
}

/** The badge as text, the same with or without colour: "[PROD]". */
export function badgeText(b: ProfileBadge): string {
  return `[${b.label}]`;
}

/** The question a data-loss confirmation on a production profile adds. */
export function clusterNameQuestion(b: ProfileBadge, summary: string): string {
  return `${badgeText(b)} production: ${summary}. Type the cluster's name to go on: `;
}

/** The refusal when the typed cluster name is not the cluster's (nothing was sent). */
export function clusterNameRefusal(b: ProfileBadge, cluster: string, typed: string | undefined): string {
  const how = typed === undefined ? 'was not given' : 'was not typed exactly';
  return `${badgeText(b)} is a production profile: the cluster's name "${cluster}" ${how} (type it when asked, or give --cluster-name with --yes); nothing was sent`;
}
