import type { MarkdownBlock } from './markdown';
import { dependentLists, sectionOrdering, sectionValues } from './registry-values';
import { SchemaError, type FieldSpec } from './types';

export { registryValue } from './registry-values';

/**
 * The seed's registry style (seed 001, step 1): sections of the schema note that declare enum
 * fields in prose-friendly Markdown instead of the yaml block —
 * - `## Type registry`, `## Domain registry`, any `## <field> registry`: a list or table of values;
 * - `## Confidence extension`, `## Maturity extension`, any `## <field> extension`: the same, and
 *   an ordering line (`confirmed > likely > contested > speculative > unverifiable`) makes the enum
 *   ordered, strongest first (what `min_confidence` and `>=` rank by);
 * - `## Status by type`, any `## <field> by <field>`: per-value lists (`status` depends on `type`);
 * - a heading that is just a field name in code or snake_case (`` ## `source_type` ``), when
 *   every value is marked as code (`` - `book` — … ``): such a heading may also just describe a
 *   field in prose bullets, which must not turn it into an enum.
 * A trailing ` (…)` or ` — …` on a heading is a remark and is ignored.
 */

/** What a heading declares, or null when it is not a registry section. */
type SectionKind = { kind: 'enum'; field: string; bare?: boolean } | { kind: 'dependent'; field: string; on: string };

/** `Source type` / `` `source_type:` `` → `source_type`. */
function fieldName(text: string): string {
	return text
		.trim()
		.replace(/:$/, '')
		.trim()
		.toLowerCase()
		.replace(/[\s-]+/g, '_');
}

/** The heading without emphasis, code marks and a trailing remark. */
function cleanHeading(heading: string): string {
	return heading
		.replace(/[`*_]{2,}|`/g, '')
		.replace(/\s+[—–]\s.*$|\s*\([^)]*\)\s*$/, '')
		.trim();
}

/** What a heading declares (see the module comment). */
export function sectionKind(heading: string): SectionKind | null {
	const text = cleanHeading(heading);
	const named = /^(.+?)\s+(?:registry|extension)$/i.exec(text);
	if (named) {
		const field = fieldName(named[1]!);
		return field === '' ? null : { kind: 'enum', field };
	}
	const by = /^(.+?)\s+by\s+(.+)$/i.exec(text);
	if (by) return { kind: 'dependent', field: fieldName(by[1]!), on: fieldName(by[2]!) };
	// A bare field name only when it cannot be ordinary prose: in code, or snake_case.
	const bare = /^`([^`]+)`:?$/.exec(heading.trim()) ?? /^([a-z][a-z0-9]*(?:_[a-z0-9]+)+):?$/.exec(text);
	return bare ? { kind: 'enum', field: fieldName(bare[1]!), bare: true } : null;
}

/** `Type registry` → `type`, `` `source_type:` registry`` → `source_type`; null when the heading declares no plain enum. */
export function registryField(heading: string): string | null {
	const kind = sectionKind(heading);
	return kind?.kind === 'enum' ? kind.field : null;
}

/** A section's body: its own lines, then each deeper sub-heading with its lines. */
interface Section {
	heading: string;
	kind: SectionKind;
	parts: { heading: string | null; lines: string[] }[];
}

/** The registry sections of a note, each with its lines up to the next heading of the same or a higher level. */
function sections(blocks: readonly MarkdownBlock[]): Section[] {
	const found: Section[] = [];
	for (let i = 0; i < blocks.length; i++) {
		const block = blocks[i]!;
		if (block.kind !== 'heading') continue;
		const kind = sectionKind(block.text);
		if (kind === null) continue;
		const section: Section = { heading: block.text, kind, parts: [{ heading: null, lines: [] }] };
		for (let j = i + 1; j < blocks.length; j++) {
			const next = blocks[j]!;
			if (next.kind === 'heading') {
				if (next.level <= block.level) break;
				section.parts.push({ heading: next.text, lines: [] });
			} else if (next.kind === 'line') section.parts[section.parts.length - 1]!.lines.push(next.text);
		}
		found.push(section);
	}
	return found;
}

/** An enum section's field: its values, ordered when an ordering line lists them (every listed value must be in it). */
function enumField(section: Section, field: string, bare: boolean): FieldSpec | null {
	// Sub-headings under an enum section are commentary, as they always were.
	const lines = section.parts[0]!.lines;
	if (
		bare &&
		!lines.every(
			(line) =>
				!/^ {0,3}(?:[-*+]|\d{1,9}[.)])\s/.test(line) || /^ {0,3}(?:[-*+]|\d{1,9}[.)])\s+(?:\*\*)?`/.test(line),
		)
	)
		return null;
	const ordering = sectionOrdering(lines);
	const listed = sectionValues(ordering ? lines.filter((line) => line !== ordering.line) : lines, field);
	if (!ordering) return listed.length > 0 ? { name: field, type: 'enum', values: listed, origin: 'registry' } : null;
	const missing = listed.filter((value) => !ordering.values.includes(value));
	if (missing.length > 0)
		throw new SchemaError(
			`"## ${section.heading}" lists ${missing.map((v) => `"${v}"`).join(', ')} but its ordering (${ordering.values.join(' > ')}) leaves ${missing.length === 1 ? 'it' : 'them'} out; add ${missing.length === 1 ? 'it' : 'them'} to the ordering`,
		);
	return { name: field, type: 'enum', values: [...new Set(ordering.values)], ordered: true, origin: 'registry' };
}

/** Every registry section of the note as a field (sections with no values are left out). */
export function registryFields(blocks: readonly MarkdownBlock[]): FieldSpec[] {
	const fields: FieldSpec[] = [];
	for (const section of sections(blocks)) {
		const { kind } = section;
		if (kind.kind === 'enum') {
			const spec = enumField(section, kind.field, kind.bare === true);
			if (spec) fields.push(spec);
			continue;
		}
		const lists = dependentLists(section.parts, kind.field);
		if (Object.keys(lists).length === 0) continue;
		fields.push({
			name: kind.field,
			type: 'enum',
			values: [...new Set(Object.values(lists).flat())],
			dependsOn: { field: kind.on, values: lists },
			origin: 'registry',
		});
	}
	return fields;
}
