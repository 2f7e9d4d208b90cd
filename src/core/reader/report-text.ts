import { contextListing } from '../text/context-groups';
import { displayLines, hintsBeyond } from '../display';
import { parseWhere } from './where';
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
	if (Array.isArray(value)) {
		const items = value.map(flow).join(', ');
		// A list of links would read `[[[Movies]]]`: pad it so the link stays visible as `[ [[Movies]] ]`.
		return items.startsWith('[') || items.endsWith(']') ? `[ ${items} ]` : `[${items}]`;
	}
	if (typeof value === 'object' && value !== null)
		return `{${Object.entries(value)
			.map(([k, v]) => `${k}: ${flow(v)}`)
			.join(', ')}}`;
	if (value === null || value === undefined) return '';
	return typeof value === 'string' && value !== '' ? value : JSON.stringify(value);
}

/** `<vault>/<path>`: the seed's reports name absolute paths. */
function absolute(report: ReaderReport, path: string): string {
	return `${report.vault_path.replace(/[/\\]+$/, '')}/${path}`;
}

/** Tags as Obsidian shows them, `#` first, like every other face (a `tags: [a]` property reads `[#a]`). */
function withHashes(key: string, value: unknown): unknown {
	if (key.toLowerCase() !== 'tags' && key.toLowerCase() !== 'tag') return value;
	const hash = (tag: unknown): unknown =>
		typeof tag === 'string' && tag !== '' && !tag.startsWith('#') ? `#${tag}` : tag;
	return Array.isArray(value) ? value.map(hash) : hash(value);
}

/** The frontmatter with the seed's fields first, then the rest in the note's order; `only` keeps those keys. */
function orderedFrontmatter(
	frontmatter: Record<string, unknown>,
	only: readonly string[] | null,
): Record<string, unknown> {
	const keys = [
		...REPORT_FIELDS.filter((key) => Object.hasOwn(frontmatter, key)),
		...Object.keys(frontmatter).filter((key) => !REPORT_FIELDS.includes(key)),
	];
	const kept =
		only === null ? keys : keys.filter((key) => only.some((field) => field.toLowerCase() === key.toLowerCase()));
	return Object.fromEntries(kept.map((key) => [key, withHashes(key, frontmatter[key])]));
}

/**
 * The fields a filter used (its `where` fields, `confidence` for min_confidence, `last_verified`
 * for a staleness window): what a filter's results show, not every property. Null for the other
 * operations, which show the whole frontmatter.
 */
function queriedFields(report: ReaderReport): string[] | null {
	if (report.query.operation !== 'filter') return null;
	const clauses = Array.isArray(report.query.where)
		? report.query.where.filter((c): c is string => typeof c === 'string')
		: [];
	const parsed = parseWhere(clauses);
	const fields = Array.isArray(parsed) ? parsed.map((p) => p.field) : [];
	if (report.query.min_confidence !== undefined) fields.push('confidence');
	if (report.query.max_staleness_days !== undefined) fields.push('last_verified');
	return fields;
}

/** One numbered result. */
function resultLines(
	report: ReaderReport,
	result: ReaderNoteResult,
	index: number,
	only: readonly string[] | null,
): string[] {
	const lines = [`  ${index + 1}. ${absolute(report, result.path)}`];
	if (only !== null) lines.push(`     - title: ${result.title}`);
	lines.push(
		`     - frontmatter: ${flow(orderedFrontmatter(result.frontmatter, only))}`,
		`     - excerpt: "${result.excerpt.replace(/\s+/g, ' ').trim()}"`,
	);
	if (result.matches) lines.push('     - matches:', ...contextListing(result.matches, '         '));
	if (result.body !== undefined)
		lines.push('     - body:', ...result.body.split('\n').map((line) => `         | ${line}`));
	const inbound = result.inbound
		? ` [${result.inbound.map((ref) => `${absolute(report, ref.path)} (${ref.source})`).join(', ')}]`
		: '';
	const outbound = result.outbound
		? ` [${result.outbound.map((link) => `${link.linkpath}${link.path ? ` → ${link.path}` : ''} (${link.resolution})`).join(', ')}]`
		: '';
	lines.push(
		`     - inbound links: ${result.inbound_count}${inbound}`,
		`     - outbound links: ${result.outbound_count}${outbound}`,
	);
	return lines;
}

/** "Searched: …" — the whole vault, or N folders with their list. */
function searchedLine(report: ReaderReport): string {
	const { files, folders } = report.searched;
	if (report.status === 'failed') return 'Searched: 0 markdown files (nothing searched)';
	if (folders.length === 1 && folders[0] === '(whole vault)')
		return `Searched: ${files} markdown files across the whole vault`;
	return `Searched: ${files} markdown files across ${folders.length} folder${folders.length === 1 ? '' : 's'} [${folders.join(', ')}]`;
}

/** How much of each note the report shows. */
export interface ReportOptions {
	/** Every property of a filter's results, not only the fields the query used. */
	allFields?: boolean;
}

/** The retrieval report in the seed's text layout. */
export function renderReport(report: ReaderReport, options: ReportOptions = {}): string {
	const only = options.allFields === true ? null : queriedFields(report);
	const { operation, ...parameters } = report.query;
	const schema = report.schema
		? `${report.schema.path} (modified ${report.schema.modified ?? 'unknown'})`
		: '(not validated)';
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
	report.results.forEach((result, i) => lines.push(...resultLines(report, result, i, only)));
	lines.push('', 'Skipped (no valid frontmatter):');
	if (report.skipped.length === 0) lines.push('  (none)');
	for (const skip of report.skipped) lines.push(`  - ${absolute(report, skip.path)} (${skip.reason})`);
	lines.push('', 'Limitations:');
	if (report.limitations.length === 0) lines.push('  (none)');
	for (const limitation of report.limitations) lines.push(`  - ${limitation}`);
	lines.push('');
	if (report.error !== undefined) lines.push(`Error: ${report.error}`);
	for (const hint of hintsBeyond(report.error, report.suggestions)) lines.push(`Hint: ${hint}`);
	lines.push(`Status: ${report.status}`);
	return displayLines(lines);
}
