/** Line ends: the one normalisation the parser and the note reader share. */

/**
 * Lone CRs (old Mac line ends) read as LFs, as Obsidian's editor shows them: same length, so
 * every offset holds, and a CR-only note keeps its lines (frontmatter, headings, tags) instead
 * of becoming one line. CRLF is left as it is.
 */
export function loneCrAsLf(text: string): string {
	return text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
}
