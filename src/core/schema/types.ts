/**
 * The frontmatter schema a vault declares: which fields exist and what each may hold. Built from
 * the schema note (a fenced `yaml` block and/or `## … registry` sections) and Obsidian's
 * `.obsidian/types.json`; the reader validates every query against it before reading a note.
 */

/** A field's type. `checkbox` comes from Obsidian's property types; the rest from the schema note. */
export type FieldType = 'text' | 'number' | 'date' | 'list' | 'enum' | 'link' | 'checkbox';

/** Every field type, in the order messages list them. */
export const FIELD_TYPES: readonly FieldType[] = ['text', 'number', 'date', 'list', 'enum', 'link', 'checkbox'];

/** Where a field's declaration came from, so messages can say which file to fix. */
export type FieldOrigin = 'schema block' | 'registry' | 'types.json';

/** Allowed values that depend on another field, e.g. `status` values per `type`. */
export interface DependentValues {
	/** The field whose value picks the list (`type`). */
	field: string;
	/** That field's value → the allowed values. */
	values: Record<string, string[]>;
}

/** One declared field. */
export interface FieldSpec {
	name: string;
	type: FieldType;
	/** Allowed values (enums; lists that restrict their items), in the order written. */
	values?: string[];
	/** The values are ranked, strongest first (`confirmed > likely > …`): `>`/`<` compare by rank. */
	ordered?: boolean;
	/** Per-value lists keyed by another field; `values` then holds their union. */
	dependsOn?: DependentValues;
	origin: FieldOrigin;
}

/** A loaded schema: the fields plus where it was read from. */
export interface Schema {
	/** The schema note as the report names it (absolute path, or vault/path inside Obsidian). */
	path: string;
	/** The schema note's modification date (`YYYY-MM-DD`), or null when unknown. */
	modified: string | null;
	fields: ReadonlyMap<string, FieldSpec>;
	/** Things the report should mention (types.json unreadable, registry overridden…). */
	notes: string[];
}

/** The schema could not be read or is malformed: the reader fails closed with this message. */
export class SchemaError extends Error {}
