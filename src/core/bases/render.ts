/**
 * A base view as text (the CLI's and the MCP server's one rendering), as a Markdown table and as
 * CSV: the columns in the view's order under their display names, grouped when the view groups,
 * the summaries last.
 */
import type { BaseResult } from './run';
import { countOf } from '../size';

/** A cell's text: lists joined with ", ", empty for no value. */
export function cellText(v: unknown): string {
	if (v === null || v === undefined) return '';
	if (Array.isArray(v)) return v.map(cellText).join(', ');
	if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
		return String(v).replace(/[\r\n]+/g, ' ');
	return JSON.stringify(v) ?? '';
}

function rowsInOrder(
	result: BaseResult,
): { title: string | null; rows: number[]; summaries?: Record<string, unknown> }[] {
	if (!result.groups) return [{ title: null, rows: result.rows.map((_, i) => i) }];
	return result.groups.map((g) => ({ title: cellText(g.value) || '(empty)', rows: g.rows, summaries: g.summaries }));
}

function summaryLine(result: BaseResult, summaries: Record<string, unknown> | undefined): string | null {
	if (!summaries) return null;
	const parts = Object.entries(summaries).map(([id, v]) => {
		const name = result.columns.find((c) => c.id === id)?.name ?? id;
		return `${name}: ${cellText(v)}`;
	});
	return parts.length ? `Summary — ${parts.join('; ')}` : null;
}

/** The view as an aligned text table, headed by what was evaluated and how many rows matched. */
export function renderBaseText(result: BaseResult): string {
	if (result.status === 'failed') return `${result.base}: ${result.error ?? 'failed'}`;
	if (result.view === null) {
		const lines = [`${result.base}: ${countOf(result.views.length, 'view')}`];
		for (const v of result.views) lines.push(`  ${v.name}  (${v.type})`);
		return lines.join('\n');
	}
	const shown = result.rows.length < result.matched ? `, showing ${result.rows.length}` : '';
	const lines = [`${result.base} › ${result.view}: ${countOf(result.matched, 'row')}${shown}`];
	const header = result.columns.map((c) => c.name);
	const cells = result.rows.map((row) => result.columns.map((c) => cellText(row.values[c.id])));
	const widths = header.map((h, i) => Math.min(40, Math.max(h.length, ...cells.map((r) => r[i]!.length))));
	const line = (parts: string[]): string =>
		parts
			.map((p, i) => (p.length > widths[i]! ? `${p.slice(0, widths[i]! - 1)}…` : p.padEnd(widths[i]!)))
			.join('  ')
			.trimEnd();
	for (const section of rowsInOrder(result)) {
		lines.push('');
		if (section.title !== null) lines.push(`${section.title} (${section.rows.length})`);
		lines.push(line(header));
		for (const i of section.rows) lines.push(line(cells[i]!));
		const s = summaryLine(result, section.summaries);
		if (s) lines.push(s);
	}
	const total = summaryLine(result, result.summaries);
	if (total && result.groups) lines.push('', total);
	else if (total) lines.push(total);
	for (const l of result.limitations.filter((l) => !l.startsWith('showing '))) lines.push(`Note: ${l}`);
	return lines.join('\n');
}

/** The view as a Markdown table (groups as headings). */
export function renderBaseMarkdown(result: BaseResult): string {
	const esc = (s: string): string => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|');
	const out: string[] = [];
	for (const section of rowsInOrder(result)) {
		if (section.title !== null) out.push(`### ${section.title}`, '');
		out.push(`| ${result.columns.map((c) => esc(c.name)).join(' | ')} |`);
		out.push(`| ${result.columns.map(() => '---').join(' | ')} |`);
		for (const i of section.rows)
			out.push(`| ${result.columns.map((c) => esc(cellText(result.rows[i]!.values[c.id]))).join(' | ')} |`);
		out.push('');
	}
	return out.join('\n').trimEnd();
}

/** The view as CSV (RFC 4180 quoting, one line per row): a header of display names, then one line per row, with `path` first. */
export function renderBaseCsv(result: BaseResult): string {
	const q = (s: string): string => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
	const lines = [['path', ...result.columns.map((c) => c.name)].map(q).join(',')];
	for (const row of result.rows)
		lines.push([row.path, ...result.columns.map((c) => cellText(row.values[c.id]))].map(q).join(','));
	return lines.join('\n');
}
