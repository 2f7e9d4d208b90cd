import type { FrontMatter } from '../metadata';
import type { NoteSource } from '../port';
import { parseDate } from './dates';
import { typesJsonFields } from './types-json';
import type { FieldType } from './types';

/**
 * `vault-query schema draft`: a schema note derived from what a vault's notes actually carry, so
 * a vault without one is a review away from schema-strict reads. Types come from Obsidian's
 * `types.json` where it has them (the user's own declaration), else from the values; text fields
 * with few, repeated values become enums. Nothing is written: the faces print or copy the text.
 */

/** A text field becomes an enum when it has at most this many distinct values… */
export const ENUM_MAX_VALUES = 12;
/** …each value at most this long (longer ones are prose, not a vocabulary)… */
const ENUM_MAX_CHARS = 40;
/** …and the notes holding it are at least this many times the distinct values (values repeat). */
const ENUM_MIN_REPEAT = 2;

/** The seed's confidence ordering, strongest first (seed 001): a drafted confidence enum uses it when the notes' values all belong to it. */
export const SEED_CONFIDENCE_ORDER: readonly string[] = [
	'confirmed',
	'likely',
	'contested',
	'speculative',
	'unverifiable',
];

/** Properties Obsidian itself treats as lists, whatever a note writes. */
const OBSIDIAN_LISTS = new Set(['tags', 'aliases', 'cssclasses']);

/** What one value looks like. */
type Kind = 'number' | 'checkbox' | 'date' | 'link' | 'text' | 'list';

/** One property of the draft. */
export interface DraftField {
	name: string;
	type: FieldType;
	/** Enum values, most used first. */
	values?: string[];
	/** Where the type came from. */
	from: 'types.json' | 'values';
	/** Notes that hold a non-empty value. */
	notes: number;
	/** Values per value of another field (`status` by `type`), when every note that has one has the other. */
	byParent?: { field: string; values: Record<string, string[]> };
	/** The enum's values are ranked strongest first (the seed's confidence ordering). */
	ordered?: boolean;
}

/** The draft: its fields and the number of notes it was drawn from. */
export interface SchemaDraft {
	fields: DraftField[];
	/** Notes read (in scope). */
	notes: number;
	/** Notes that have frontmatter. */
	withFrontmatter: number;
	/** Things worth saying in the draft (types.json unreadable…). */
	remarks: string[];
}

/** The kind of one frontmatter value, or null when it is empty. */
function kindOf(value: unknown): Kind | null {
	if (value === null || value === undefined || value === '') return null;
	if (Array.isArray(value)) return 'list';
	if (typeof value === 'number') return 'number';
	if (typeof value === 'boolean') return 'checkbox';
	if (value instanceof Date) return 'date';
	if (typeof value !== 'string') return 'text';
	if (parseDate(value) !== null) return 'date';
	return /^\[\[[^\]]+\]\]$/.test(value.trim()) ? 'link' : 'text';
}

/** The type a set of value kinds agrees on: one kind is that type; lists absorb single items; anything else mixed is text. */
function inferredType(kinds: ReadonlySet<Kind>): FieldType {
	if (kinds.size === 1) return [...kinds][0]!;
	if (kinds.has('list') && [...kinds].every((k) => k === 'list' || k === 'text' || k === 'link')) return 'list';
	return 'text';
}

/** What the notes hold under one property. */
interface Observed {
	notes: number;
	kinds: Set<Kind>;
	/** Text values and how many notes hold each. */
	texts: Map<string, number>;
}

/** `status` values seen per `type` value, and how many notes had a status without a text type. */
interface Pairs {
	byType: Map<string, Set<string>>;
	orphans: number;
}

/** Record which status a note of which type has. */
function observePair(pairs: Pairs, frontmatter: FrontMatter): void {
	const status = frontmatter.status;
	if (typeof status !== 'string' || status.trim() === '') return;
	const type = frontmatter.type;
	if (typeof type !== 'string' || type.trim() === '') {
		pairs.orphans++;
		return;
	}
	const set = pairs.byType.get(type.trim()) ?? new Set<string>();
	pairs.byType.set(type.trim(), set.add(status.trim()));
}

/** `status` by `type` for the seed's `## Status by type`, when the type is an enum and every status is a short word under a type. */
function statusByType(fields: readonly DraftField[], pairs: Pairs): DraftField['byParent'] | undefined {
	const type = fields.find((f) => f.name === 'type');
	const status = fields.find((f) => f.name === 'status');
	if (
		!type?.values ||
		!status ||
		(status.type !== 'text' && status.type !== 'enum') ||
		pairs.orphans > 0 ||
		pairs.byType.size === 0
	)
		return undefined;
	const all = new Set([...pairs.byType.values()].flatMap((set) => [...set]));
	if (
		all.size > ENUM_MAX_VALUES * 2 ||
		[...all].some((value) => value.length > ENUM_MAX_CHARS || /[\r\n`]/.test(value))
	)
		return undefined;
	const values: Record<string, string[]> = {};
	for (const name of type.values)
		if (pairs.byType.has(name)) values[name] = [...(pairs.byType.get(name) ?? [])].sort();
	return { field: 'type', values };
}

/** Record one note's frontmatter. */
function observe(seen: Map<string, Observed>, frontmatter: FrontMatter): void {
	for (const [name, value] of Object.entries(frontmatter)) {
		// An empty or blank key (`"": x`) is no property anyone can name or query.
		if (name.trim() === '') continue;
		const kind = kindOf(value);
		let entry = seen.get(name);
		if (!entry) seen.set(name, (entry = { notes: 0, kinds: new Set(), texts: new Map() }));
		if (kind === null) continue;
		entry.notes++;
		entry.kinds.add(kind);
		if (kind === 'text' && typeof value === 'string')
			entry.texts.set(value.trim(), (entry.texts.get(value.trim()) ?? 0) + 1);
	}
}

/** The enum values of a text field, most used first, or null when it is not a vocabulary. */
function enumValues(entry: Observed): string[] | null {
	const distinct = entry.texts.size;
	if (distinct === 0 || distinct > ENUM_MAX_VALUES || entry.notes < distinct * ENUM_MIN_REPEAT) return null;
	if ([...entry.texts.keys()].some((value) => value.length > ENUM_MAX_CHARS || /[\r\n]/.test(value))) return null;
	return [...entry.texts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([value]) => value);
}

/**
 * Draft the schema of the notes at `paths`: every property any of them carries (empty ones
 * included, typed text), typed from `<configDir>/types.json` where it types the property.
 */
export async function draftSchema(source: NoteSource, paths: readonly string[]): Promise<SchemaDraft> {
	const remarks: string[] = [];
	let declared = new Map<string, FieldType>();
	try {
		const text = await source.readConfigFile('types.json');
		if (text !== null) {
			const parsed = typesJsonFields(text);
			declared = new Map(parsed.fields.map((f) => [f.name, f.type]));
			remarks.push(...parsed.notes);
		}
	} catch (error) {
		remarks.push(
			`${source.configDir}/types.json not used: ${error instanceof Error ? error.message : String(error)}`,
		);
	}
	const seen = new Map<string, Observed>();
	const pairs: Pairs = { byType: new Map(), orphans: 0 };
	let withFrontmatter = 0;
	for (const path of paths) {
		const frontmatter = source.getMetadata(path)?.frontmatter;
		if (!frontmatter) continue;
		withFrontmatter++;
		observe(seen, frontmatter);
		observePair(pairs, frontmatter);
	}
	const fields: DraftField[] = [];
	for (const [name, entry] of [...seen.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
		const typed = declared.get(name);
		const type: FieldType =
			typed ?? (OBSIDIAN_LISTS.has(name) ? 'list' : entry.kinds.size === 0 ? 'text' : inferredType(entry.kinds));
		const field: DraftField = { name, type, from: typed ? 'types.json' : 'values', notes: entry.notes };
		// Only a text field narrows to an enum: a list's items or a link's targets are open-ended.
		const values = type === 'text' && entry.kinds.size === 1 && entry.kinds.has('text') ? enumValues(entry) : null;
		if (values) Object.assign(field, { type: 'enum', values });
		if (
			name === 'confidence' &&
			entry.kinds.size === 1 &&
			entry.kinds.has('text') &&
			[...entry.texts.keys()].every((v) => SEED_CONFIDENCE_ORDER.includes(v))
		) {
			Object.assign(field, { type: 'enum', values: [...SEED_CONFIDENCE_ORDER], ordered: true });
		}
		fields.push(field);
	}
	const byParent = statusByType(fields, pairs);
	const status = fields.find((f) => f.name === 'status');
	if (byParent && status)
		Object.assign(status, { type: 'enum', values: [...new Set(Object.values(byParent.values).flat())], byParent });
	return { fields, notes: paths.length, withFrontmatter, remarks };
}
