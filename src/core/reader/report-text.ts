import type { LineMatch } from '../contract';
import { displayLines } from '../display';
import type { ReaderNoteResult, ReaderReport } from './types';

/**
 * The seed's retrieval report as text, in its layout (header, Query, Searched, Schema validated
 * against, Matched, Results, Skipped, Limitations, Status). Pure, so the CLI's `--report` and the
 * plugin's report view print the same characters.
 */

/** The frontmatter fields the seed's report shows first, in its order. */
const REPORT_FIELDS = ['type', 'domain', 'status', 'confidence', 'maturity', 'last_verified', 'tags'];

/** The report's first two lines. */
const HEADER = ['RETRIEVAL REPORT — vault-reader', '─'.repeat(32)];

/** A value in YAML flow style, as people read frontmatter: `[a, b]`, `{k: v}`, bare strings. */
export function flow(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(flow).join(', ')}]`;
	if (typeof value === 'object' && value !== null) return `{${Object.entries(value).map(([k, v]) => `${k}: ${flow(v)}`).join(', ')}}`;
	if (value === null || value === undefined) return '';
	return typeof value === 'string' && value !== '' ? value : JSON.stringify(value);
}

/** `<vault>/<path>`: the seed's reports name absolute paths. */
function absolute(report: ReaderReport, path: string): string {
	return `${report.vault_path.replace(/[/\\]+$/, '')}/${path}`;
}

/** The frontmatter with the seed's fields first, then the rest in the note's order. */
function orderedFrontmatter(frontmatter: Record<string, unknown>): Record<string, unknown> {
	const keys = [...REPORT_FIELDS.filter((key) => Object.hasOwn(frontmatter, key)), ...Object.keys(frontmatter).filter((key) => !REPORT_FIELDS.includes(key))];
	return Object.fromEntries(keys.map((key) => [key, frontmatter[key]]));
}

/** Matching lines with their context, grep-style (`12-` context, `13:` match). */
function contextLines(matches: readonly LineMatch[]): string[] {
	const lines: string[] = [];
	for (const match of matches) {
		const first = match.line - match.before.length;
		match.before.forEach((text, i) => lines.push(`         ${first + i}- ${text}`));
		lines.push(`         ${match.line}: ${match.text}`);
		match.after.forEach((text, i) => lines.push(`         ${match.line + 1 + i}- ${text}`));
	}
	return lines;
}

/** One numbered result. */
function resultLines(report: ReaderReport, result: ReaderNoteResult, index: number): string[] {
	const lines = [`  ${index + 1}. ${absolute(report, result.path)}`, `     - frontmatter: ${flow(orderedFrontmatter(result.frontmatter))}`, `     - excerpt: "${result.excerpt.replace(/\s+/g, ' ').trim()}"`];
	if (result.matches) lines.push('     - matches:', ...contextLines(result.matches));
	if (result.body !== undefined) lines.push('     - body:', ...result.body.split('\n').map((line) => `         | ${line}`));
	const inbound = result.inbound ? ` [${result.inbound.map((ref) => `${absolute(report, ref.path)} (${ref.source})`).join(', ')}]` : '';
	const outbound = result.outbound ? ` [${result.outbound.map((link) => `${link.linkpath}${link.path ? ` → ${link.path}` : ''} (${link.resolution})`).join(', ')}]` : '';
	lines.push(`     - inbound links: ${result.inbound_count}${inbound}`, `     - outbound links: ${result.outbound_count}${outbound}`);
	return lines;
}

/** "Searched: …" — the whole vault, or N folders with their list. */
function searchedLine(report: ReaderReport): string {
	const { files, folders } = report.searched;
	if (report.status === 'failed') return 'Searched: 0 markdown files (nothing searched)';
	if (folders.length === 1 && folders[0] === '(whole vault)') return `Searched: ${files} markdown files across the whole vault`;
	return `Searched: ${files} markdown files across ${folders.length} folder${folders.length === 1 ? '' : 's'} [${folders.join(', ')}]`;
}

/** The retrieval report in the seed's text layout. */
export function renderReport(report: ReaderReport): string {
	const { operation, ...parameters } = report.query;
	const schema = report.schema ? `${report.schema.path} (modified ${report.schema.modified ?? 'unknown'})` : '(not validated)';
	const lines = [
		...HEADER,
		`Query: {operation: ${flow(operation)}, parameters: ${flow(parameters)}}`,
		searchedLine(report),
		`Schema validated against: ${schema}`,
		`Matched: ${report.matched} note${report.matched === 1 ? '' : 's'} (after filters)`,
		'',
		'Results:',
	];
	if (report.results.length === 0) lines.push('  (none)');
	report.results.forEach((result, i) => lines.push(...resultLines(report, result, i)));
	lines.push('', 'Skipped (no valid frontmatter):');
	if (report.skipped.length === 0) lines.push('  (none)');
	for (const skip of report.skipped) lines.push(`  - ${absolute(report, skip.path)} (${skip.reason})`);
	lines.push('', 'Limitations:');
	if (report.limitations.length === 0) lines.push('  (none)');
	for (const limitation of report.limitations) lines.push(`  - ${limitation}`);
	lines.push('');
	if (report.error !== undefined) lines.push(`Error: ${report.error}`);
	for (const hint of report.suggestions ?? []) lines.push(`Hint: ${hint}`);
	lines.push(`Status: ${report.status}`);
	return displayLines(lines);
}
