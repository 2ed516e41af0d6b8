// The full-screen consoles (tui, follow) draw on the terminal's alternate screen, so the shell's
// screen comes back on exit, with the cursor shown again.
export const ENTER_ALT_SCREEN = '\u001b[?1049h';
export const LEAVE_ALT_SCREEN = '\u001b[?1049l';
export const SHOW_CURSOR = '\u001b[?25h';
