/**
 * The Markdown of a context pack, for pasting into a chat: `# Context pack`, the task when
 * given, then the seed's four parts — PACK (one block per source: `[S1] path § section (lines
 * a–b) · date`, then its quotes as a blockquote, `[...]` where sentences were left out),
 * COVERAGE (a line per sub-question), GAPS, and HANDOFF (the contract as a JSON block).
 *
 * The pack is `before + blocks + after`, with nothing between them, so the budget can add up the
 * estimates of the parts (tokens.ts counts of concatenated texts add exactly).
 */
import { escapeControls } from '../display';
import type { CoverageLine, Handoff, PackGap, PackSource } from './types';

/** A source as rendered: the contract fields plus where sentences were cut and which date key was used. */
export interface SourceView extends PackSource {
	/** Per quote: whether sentences were left out before it (rendered `[...]`). */
	cutBefore: boolean[];
	/** The frontmatter key the date came from (`date`, `created`…), or null when undated. */
	dateKey: string | null;
}

/** Everything the Markdown shows. */
export interface PackView {
	task?: string;
	/** Sources in placement order (best first, second best last). */
	sources: SourceView[];
	coverage: CoverageLine[];
	gaps: PackGap[];
	handoff: Handoff;
}

/** `a–b`, or `a` for one line. */
export function lineRange(lines: readonly [number, number]): string {
	return lines[0] === lines[1] ? `line ${lines[0]}` : `lines ${lines[0]}–${lines[1]}`;
}

/** A quote as blockquote lines (`> ` before each of its lines). */
function quoted(text: string): string {
	return text
		.split(/\r?\n/)
		.map((line) => `> ${line}`.trimEnd())
		.join('\n');
}

/** The date label: `2023-09-12`, `2023-09-12 (created)` when another key than `date` gave it, `2023-09-12 (file modified)` for the modification time, or `undated`. */
function dateLabel(s: SourceView): string {
	if (s.date_source === 'mtime') return `${s.date} (file modified)`;
	return s.dateKey === null || s.dateKey.toLowerCase() === 'date' ? s.date : `${s.date} (${s.dateKey})`;
}

/** One source block of PACK, ending with a blank line. */
export function renderSourceBlock(s: SourceView): string {
	// A file name or heading with a newline must not start a fake block of its own.
	const head = `### [${s.id}] ${escapeControls(s.path)} § ${escapeControls(s.section)} (${lineRange(s.lines)}) · ${dateLabel(s)}`;
	const body: string[] = [];
	s.quotes.forEach((q, i) => {
		if (i > 0) body.push(s.cutBefore[i] ? '> [...]' : '>');
		body.push(quoted(q));
	});
	return `${head}\n\n${body.join('\n')}\n\n`;
}

/** Why a gap's words are missing: in no note of the vault, or in none of the sections that answer. */
function gapWords(c: CoverageLine): string {
	const absent = new Set(c.absent_terms);
	const present = c.missing_terms.filter((t) => !absent.has(t));
	const parts: string[] = [];
	if (c.absent_terms.length > 0) parts.push(`not in the vault: ${c.absent_terms.join(', ')}`);
	if (present.length > 0) parts.push(`in no answering section: ${present.join(', ')}`);
	return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}

/** One COVERAGE line. */
function coverageLine(c: CoverageLine): string {
	if (c.status === 'gap') return `- ${c.facet} — GAP${gapWords(c)}`;
	const parts: string[] = [];
	if (c.sources.length > 0) parts.push(c.sources.join(', '));
	if (c.partial_sources.length > 0) parts.push(`partial: ${c.partial_sources.join(', ')}`);
	const missing =
		c.status === 'partial' && c.missing_terms.length > 0 ? ` (missing: ${c.missing_terms.join(', ')})` : '';
	return `- ${c.facet} — ${parts.join('; ')}${missing}`;
}

/** The text before and after the source blocks. */
export function renderFrame(view: Omit<PackView, 'sources'> & { sourceCount: number }): {
	before: string;
	after: string;
} {
	const head = ['# Context pack', ''];
	if (view.task !== undefined && view.task.trim() !== '') head.push(`Task: ${view.task.trim()}`, '');
	head.push('## PACK', '', '');
	const after: string[] = [];
	if (view.sourceCount === 0) after.push('No section of the vault answers this query.', '');
	after.push('## COVERAGE', '');
	for (const c of view.coverage) after.push(coverageLine(c));
	if (view.coverage.length === 0) after.push('- (the query has no words to cover)');
	after.push('', '## GAPS', '');
	for (const g of view.gaps) after.push(`- ${g.text}`);
	if (view.gaps.length === 0) after.push('- None found: every sub-question has a relevant source.');
	// A pack shorter than its budget says so: nothing was cut, so a bigger budget would add nothing.
	if (view.sourceCount > 0 && !view.gaps.some((g) => g.kind === 'budget'))
		after.push('- Nothing was left out for budget: every section that matches the question is in the pack.');
	after.push('', '## HANDOFF', '', '```json', JSON.stringify(view.handoff, null, 2), '```', '');
	return { before: head.join('\n'), after: after.join('\n') };
}

/** The whole pack as Markdown. */
export function renderPackMarkdown(view: PackView): string {
	const { before, after } = renderFrame({ ...view, sourceCount: view.sources.length });
	return before + view.sources.map(renderSourceBlock).join('') + after;
}
