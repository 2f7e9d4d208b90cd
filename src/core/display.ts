/**
 * Text for a terminal: vault text (file names, titles, lines) may hold control characters or
 * escape sequences that would fake a result block or clear the screen, so every text rendering
 * escapes them, as `ls` does (issue 15). JSON needs none of this: JSON.stringify escapes them.
 */

/** The bidirectional overrides and isolates that reorder what a line shows, DEL and the C1 controls. */
const NON_C0 = '\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069';
// why: built from strings because matching control characters is the point (no-control-regex guards against it by accident).
/** C0 controls but tab, and NON_C0. */
const CONTROL = new RegExp(`[\\u0000-\\u0008\\u000a-\\u001f${NON_C0}]`, 'g');
/** The same without the newline, for text that is already laid out in lines. */
const CONTROL_BUT_NEWLINE = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f${NON_C0}]`, 'g');

/** CONTROL_BUT_NEWLINE without `g`, for a test. */
const HAS_CONTROL_BUT_NEWLINE = new RegExp(CONTROL_BUT_NEWLINE.source);

/** The visible spelling of one control character: `\n`, `\r`, `\e`, `\x07`, `\u202e`. */
function spell(char: string): string {
	if (char === '\n') return '\\n';
	if (char === '\r') return '\\r';
	if (char === '\u001b') return '\\e';
	const code = char.charCodeAt(0);
	return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One field or line with every control character spelled out, newlines included (a file name must stay on its line). */
export function escapeControls(text: string): string {
	return text.replace(CONTROL, spell);
}

/** Text laid out in lines: control characters spelled out, its own newlines kept. */
export function escapeTerminal(text: string): string {
	return text.replace(CONTROL_BUT_NEWLINE, spell);
}

/** Lines built from vault text, escaped one by one and joined: a newline inside a field cannot start a line of its own. */
export function displayLines(lines: readonly string[]): string {
	const joined = lines.join('\n');
	// One search of the joined lines finds no control character and no newline but the joins: nothing to escape.
	if (!HAS_CONTROL_BUT_NEWLINE.test(joined) && !lines.some((line) => line.includes('\n'))) return joined;
	return lines.map(escapeControls).join('\n');
}

/**
 * Whether a limitation only says the results were cut at the limit ("Truncated to 2 of 62 …",
 * "Showing 10 of 233 matching notes"): text output says that in its first line, so it drops
 * these; JSON keeps them.
 */
export function isTruncationNote(limitation: string): boolean {
	return /^(Truncated to \d|Showing \d+ of \d+ matching notes)/.test(limitation);
}

/** The hints an error message does not already hold, so "did you mean" is said once. */
export function hintsBeyond(error: string | undefined, hints: readonly string[] | undefined): string[] {
	return (hints ?? []).filter(
		(hint) => error === undefined || !(error.includes(hint) || error.includes(`"${hint}"`)),
	);
}
