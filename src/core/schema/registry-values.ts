/**
 * The values a registry-style section lists: list items and table cells (`registryValue` picks the
 * value out of each), an ordering line (`confirmed > likely > …`), and the per-value lists of a
 * `## Status by type` section.
 */

/** A list item at the top level: `- x`, `* x`, `+ x`, `1. x`. */
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])\s+(?:\[.\]\s+)?(.*)$/;
/** A table's delimiter row: `| --- | :-: |`. */
const DELIMITER_ROW = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;
/** A run of two or more words joined by `>`: an ordering, strongest first. */
const ORDERING = /[\p{L}\p{N}][\p{L}\p{N}_-]*(?:\s*>\s*[\p{L}\p{N}][\p{L}\p{N}_-]*)+/gu;

/**
 * The value a list item or table cell names: a leading code span (`` `claim` — a single claim``),
 * else the text before the first separator (` — `, ` – `, ` - `, `: `, ` (`), emphasis removed.
 */
export function registryValue(text: string): string {
	const code = /^\s*(?:\*\*)?`([^`]+)`/.exec(text);
	if (code) return code[1]!.trim();
	const plain = text.replace(/\*\*|__/g, '').trim();
	const cut = plain.search(/\s[—–-]\s|:\s|:$|\s\(/);
	return (cut < 0 ? plain : plain.slice(0, cut)).trim();
}

/** The cells of a table row, outer pipes removed (`\|` stays inside a cell). */
function cells(row: string): string[] {
	return row
		.trim()
		.replace(/^\|/, '')
		.replace(/(?<!\\)\|$/, '')
		.split(/(?<!\\)\|/)
		.map((cell) => cell.trim());
}

/** A heading cell as a comparable name: `Status values` → `status_values`. */
function columnName(cell: string): string {
	return registryValue(cell)
		.toLowerCase()
		.replace(/[\s-]+/g, '_');
}

/** The tables and list items of a section's lines, in order. */
function pieces(lines: readonly string[]): ({ kind: 'table'; rows: string[][] } | { kind: 'item'; text: string })[] {
	const found: ({ kind: 'table'; rows: string[][] } | { kind: 'item'; text: string })[] = [];
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i]!;
		if (line.trimStart().startsWith('|') && i + 1 < lines.length && DELIMITER_ROW.test(lines[i + 1]!)) {
			let end = i + 2;
			while (end < lines.length && lines[end]!.includes('|')) end++;
			found.push({ kind: 'table', rows: [cells(line), ...lines.slice(i + 2, end).map(cells)] });
			i = end - 1;
			continue;
		}
		const item = LIST_ITEM.exec(line);
		if (item) found.push({ kind: 'item', text: item[1]! });
	}
	return found;
}

/** Values from a table: the column headed like the field (or `value`/`name`), else the first. */
function tableValues(rows: readonly string[][], field: string): string[] {
	const header = rows[0]!.map(columnName);
	const named = header.findIndex(
		(cell) => cell === field || cell === 'value' || cell === 'values' || cell === 'name',
	);
	const column = named < 0 ? 0 : named;
	return rows.slice(1).map((row) => registryValue(row[column] ?? ''));
}

/** The values listed in one section's lines (list items and tables), without repeats. */
export function sectionValues(lines: readonly string[], field: string): string[] {
	const values: string[] = [];
	for (const piece of pieces(lines))
		values.push(...(piece.kind === 'table' ? tableValues(piece.rows, field) : [registryValue(piece.text)]));
	return [...new Set(values.filter((value) => value !== ''))];
}

/** The longest ordering written in the lines (`confirmed > likely > contested`), strongest first; null when there is none. */
export function sectionOrdering(lines: readonly string[]): { values: string[]; line: string } | null {
	let best: { values: string[]; line: string } | null = null;
	for (const line of lines) {
		for (const run of line.replace(/[`*_]{2}|`/g, '').matchAll(ORDERING)) {
			const values = run[0].split('>').map((value) => value.trim());
			if (!best || values.length > best.values.length) best = { values, line };
		}
	}
	return best;
}

/** The words of a cell or an item's tail: `` `active`, `superseded` `` or `draft | active / done`. */
function wordList(text: string): string[] {
	return text
		.split(/\s*(?:,|\||\/|;|\s+or\s+)\s*/)
		.map((word) => registryValue(word).replace(/[`*]/g, '').trim())
		.filter((word) => word !== '');
}

/** `` `claim`: `active`, `superseded` `` or `claim — active, superseded` → the key and its values; null when the item has no separator. */
function keyedItem(text: string): { key: string; values: string[] } | null {
	const match = /^\s*(?:\*\*)?`?([^`:*—–]+?)`?(?:\*\*)?\s*(?::|—|–|\s-\s|→|=)\s*(.+)$/.exec(text);
	if (!match) return null;
	const key = match[1]!.trim();
	return key === '' ? null : { key, values: wordList(match[2]!) };
}

/**
 * The per-value lists of a `## <field> by <parent>` section: list items keyed by the parent's
 * value (`` - `claim`: active, superseded ``), a table whose first column is the parent's value
 * (the values in the column named like the field or `values`, else the second), or `### claim`
 * sub-headings each followed by a list of values.
 */
export function dependentLists(
	parts: readonly { heading: string | null; lines: string[] }[],
	field: string,
): Record<string, string[]> {
	const lists: Record<string, string[]> = {};
	const add = (key: string, values: readonly string[]): void => {
		if (values.length > 0) lists[key] = [...new Set([...(lists[key] ?? []), ...values])];
	};
	for (const part of parts) {
		if (part.heading !== null) {
			add(registryValue(part.heading), sectionValues(part.lines, field));
			continue;
		}
		for (const piece of pieces(part.lines)) {
			if (piece.kind === 'item') {
				const keyed = keyedItem(piece.text);
				if (keyed) add(keyed.key, keyed.values);
				continue;
			}
			const header = piece.rows[0]!.map(columnName);
			const named = header.findIndex(
				(cell, i) =>
					i > 0 &&
					(cell === field || cell.startsWith(`${field}_`) || cell === 'values' || cell === 'allowed'),
			);
			const column = named < 0 ? 1 : named;
			for (const row of piece.rows.slice(1)) add(registryValue(row[0] ?? ''), wordList(row[column] ?? ''));
		}
	}
	return lists;
}
