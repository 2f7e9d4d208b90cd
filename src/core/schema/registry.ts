import type { MarkdownBlock } from './markdown';
import type { FieldSpec } from './types';

/**
 * The seed's registry style: a heading `## Type registry` (or `## Domain registry`, any
 * `<field> registry`) followed by a list or a table of the allowed values. Each such section
 * declares an enum field.
 */

/** A list item at the top level: `- x`, `* x`, `+ x`, `1. x`. */
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])\s+(?:\[.\]\s+)?(.*)$/;
/** A table's delimiter row: `| --- | :-: |`. */
const DELIMITER_ROW = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

/** `Type registry` → `type`, `` `source_type:` registry`` → `source_type`; null when the heading is not a registry. */
export function registryField(heading: string): string | null {
	const match = /^(.+?)\s+registry$/i.exec(heading.replace(/[`*_]{2,}|`/g, '').trim());
	if (!match) return null;
	const field = match[1].trim().replace(/:$/, '').trim().toLowerCase().replace(/[\s-]+/g, '_');
	return field === '' ? null : field;
}

/**
 * The value a list item or table cell names: a leading code span (`` `claim` — a single claim``),
 * else the text before the first separator (` — `, ` – `, ` - `, `: `, ` (`), emphasis removed.
 */
export function registryValue(text: string): string {
	const code = /^\s*(?:\*\*)?`([^`]+)`/.exec(text);
	if (code) return code[1].trim();
	const plain = text.replace(/\*\*|__/g, '').trim();
	const cut = plain.search(/\s[—–-]\s|:\s|:$|\s\(/);
	return (cut < 0 ? plain : plain.slice(0, cut)).trim();
}

/** The cells of a table row, outer pipes removed (`\|` stays inside a cell). */
function cells(row: string): string[] {
	return row.trim().replace(/^\|/, '').replace(/(?<!\\)\|$/, '').split(/(?<!\\)\|/).map((cell) => cell.trim());
}

/** Values from a table: the column headed like the field (or `value`/`name`), else the first. */
function tableValues(rows: string[], field: string): string[] {
	const header = cells(rows[0]).map((cell) => registryValue(cell).toLowerCase().replace(/[\s-]+/g, '_'));
	const named = header.findIndex((cell) => cell === field || cell === 'value' || cell === 'values' || cell === 'name');
	const column = named < 0 ? 0 : named;
	return rows.slice(2).map((row) => registryValue(cells(row)[column] ?? ''));
}

/** The values listed in one registry section's lines. */
function sectionValues(lines: string[], field: string): string[] {
	const values: string[] = [];
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i];
		if (line.trimStart().startsWith('|') && i + 1 < lines.length && DELIMITER_ROW.test(lines[i + 1])) {
			let end = i + 2;
			while (end < lines.length && lines[end].includes('|')) end++;
			values.push(...tableValues(lines.slice(i, end), field));
			i = end - 1;
			continue;
		}
		const item = LIST_ITEM.exec(line);
		if (item) values.push(registryValue(item[1]));
	}
	return [...new Set(values.filter((value) => value !== ''))];
}

/** Every `<field> registry` section of the note, as enum fields (sections with no values are left out). */
export function registryFields(blocks: readonly MarkdownBlock[]): FieldSpec[] {
	const fields: FieldSpec[] = [];
	for (let i = 0; i < blocks.length; i++) {
		const block = blocks[i];
		if (block.kind !== 'heading') continue;
		const field = registryField(block.text);
		if (field === null) continue;
		const lines: string[] = [];
		for (let j = i + 1; j < blocks.length; j++) {
			const next = blocks[j];
			if (next.kind === 'heading') break;
			if (next.kind === 'line') lines.push(next.text);
		}
		const values = sectionValues(lines, field);
		if (values.length > 0) fields.push({ name: field, type: 'enum', values, origin: 'registry' });
	}
	return fields;
}
