/**
 * Just enough Markdown for a schema note: headings, fenced code blocks and the other lines, with
 * the frontmatter block skipped. A schema file given outside the vault has no `CachedMetadata`,
 * so the note is scanned from its text in both cases (one code path, one behaviour).
 */

/** One piece of the note, in document order. */
export type MarkdownBlock =
	| { kind: 'heading'; level: number; text: string }
	| { kind: 'fence'; info: string; body: string; line: number }
	| { kind: 'line'; text: string };

/** An opening fence: up to three spaces, three or more backticks or tildes, then the info string. */
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
/** An ATX heading; trailing `#`s are decoration. */
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;

/** The line where the body starts: after a leading `---` … `---` frontmatter block, else 0. */
function bodyLine(lines: string[]): number {
	if (lines[0] !== '---') return 0;
	const close = lines.indexOf('---', 1);
	return close < 0 ? 0 : close + 1;
}

/** Split a note into headings, fenced blocks (with their info string) and plain lines. */
export function scanMarkdown(text: string): MarkdownBlock[] {
	const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
	const blocks: MarkdownBlock[] = [];
	for (let i = bodyLine(lines); i < lines.length; i++) {
		const line = lines[i]!;
		const fence = FENCE_OPEN.exec(line);
		if (fence) {
			const marker = fence[1]!;
			const closing = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
			let end = i + 1;
			while (end < lines.length && !closing.test(lines[end]!)) end++;
			// An unclosed fence runs to the end of the note, as in CommonMark.
			blocks.push({
				kind: 'fence',
				info: fence[2]!.toLowerCase(),
				body: lines.slice(i + 1, end).join('\n'),
				line: i + 1,
			});
			i = end;
			continue;
		}
		const heading = HEADING.exec(line);
		if (heading) blocks.push({ kind: 'heading', level: heading[1]!.length, text: heading[2]! });
		else blocks.push({ kind: 'line', text: line });
	}
	return blocks;
}
