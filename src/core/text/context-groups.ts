import type { LineMatch } from '../contract';

/** One printed line of a grep-style listing: its 1-based number, its text, and whether it matched. */
export interface ContextLine {
	line: number;
	text: string;
	match: boolean;
}

/**
 * The matches of one note as GNU grep prints them: each match with its context, overlapping or
 * touching stretches merged into one group, so no line is printed twice; groups are separated by
 * `--` when printed. A line that matched is a match even where it is another match's context.
 */
export function contextGroups(matches: readonly LineMatch[]): ContextLine[][] {
	const lines = new Map<number, ContextLine>();
	for (const m of matches) {
		const first = m.line - m.before.length;
		m.before.forEach((text, i) => {
			if (!lines.has(first + i)) lines.set(first + i, { line: first + i, text, match: false });
		});
		lines.set(m.line, { line: m.line, text: m.text, match: true });
		m.after.forEach((text, i) => {
			if (!lines.has(m.line + 1 + i)) lines.set(m.line + 1 + i, { line: m.line + 1 + i, text, match: false });
		});
	}
	const groups: ContextLine[][] = [];
	for (const entry of [...lines.values()].sort((a, b) => a.line - b.line)) {
		const group = groups.at(-1);
		if (group !== undefined && group[group.length - 1]!.line + 1 === entry.line) group.push(entry);
		else groups.push([entry]);
	}
	return groups;
}

/** The groups as `12- context` / `13: match` lines, `--` between groups, each line prefixed by `indent`. */
export function contextListing(matches: readonly LineMatch[], indent: string): string[] {
	const out: string[] = [];
	for (const group of contextGroups(matches)) {
		if (out.length > 0) out.push(`${indent}--`);
		for (const l of group) out.push(`${indent}${l.line}${l.match ? ':' : '-'} ${l.text}`);
	}
	return out;
}
