import type { LinkResult, NoteResult, QueryResult } from '../core/contract';
import { displayLines } from '../core/display';

/** Lines of the envelope's footer: skipped files, limitations and suggestions, for humans. */
export function renderFooter(result: QueryResult<unknown>): string[] {
	const lines: string[] = [];
	if (result.suggestions && result.suggestions.length > 0) lines.push('', ...result.suggestions.map((s) => `Hint: ${s}`));
	if (result.skipped.length > 0) {
		lines.push('', `Skipped or partly read (${result.skipped.length}):`);
		for (const skip of result.skipped) lines.push(`  ${skip.path}: ${skip.reason}`);
	}
	if (result.limitations.length > 0) {
		lines.push('', 'Limitations:');
		for (const limitation of result.limitations) lines.push(`  - ${limitation}`);
	}
	return lines;
}

/** One note result as a few readable lines; grep results show each matching line with its context. */
function renderNote(note: NoteResult): string[] {
	const marker = note.source ? `  [${note.source}]` : '';
	const lines = [`${note.path}${marker}`, `  ${note.title}`];
	if (note.matches) {
		for (const match of note.matches) {
			const first = match.line - match.before.length;
			match.before.forEach((text, i) => lines.push(`  ${first + i}- ${text}`));
			lines.push(`  ${match.line}: ${match.text}`);
			match.after.forEach((text, i) => lines.push(`  ${match.line + 1 + i}- ${text}`));
			lines.push('  --');
		}
		lines.pop();
	} else if (note.excerpt !== '') {
		lines.push(`  ${note.excerpt}`);
	}
	return lines;
}

/** One outgoing link as a line: linkpath → resolved path (or "unresolved"), and where it was found. */
function renderLink(link: LinkResult): string {
	const target = link.resolved ?? '(unresolved)';
	const times = link.count > 1 ? ` ×${link.count}` : '';
	return `${link.linkpath} → ${target}  [${link.source}]${times}`;
}

/** The readable listing printed without `--json`. */
export function renderText(result: QueryResult<NoteResult> | QueryResult<LinkResult>, isLinks: boolean): string {
	const lines: string[] = [];
	const shown = result.results.length;
	const noun = isLinks ? 'link' : 'note';
	const scope = isLinks ? '' : ` (searched ${result.searched.files} notes)`;
	lines.push(`${result.matched} ${noun}${result.matched === 1 ? '' : 's'} matched${scope}${shown < result.matched ? `, showing ${shown}` : ''}`);
	if (shown > 0) lines.push('');
	for (const item of result.results) {
		if (isLinks) lines.push(renderLink(item as LinkResult));
		else lines.push(...renderNote(item as NoteResult), '');
	}
	if (!isLinks && shown > 0) lines.pop();
	lines.push(...renderFooter(result));
	return displayLines(lines);
}
