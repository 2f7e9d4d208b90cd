/**
 * Notes' `CachedMetadata` as UTF-8 JSON pieces, one piece per field, indexed by (field code,
 * start, end, check) byte ranges in each note's key order. Positions
 * (`{start:{line,col,offset},end:{…}}`, most of the bytes) are flattened to six numbers.
 * Structural queries read two or three fields of every note, so a field is checked and decoded
 * from its own bytes when first read — never the whole text. Decoded objects print exactly like
 * parsed ones.
 *
 * Deferred fields (the layout fields `sections`, `listItems`, `blocks`: half the metadata, read
 * only by packs and excerpts of a few notes) are marked present with an empty range and
 * recomputed on first read by a callback (the Node face re-parses the unchanged note).
 */
import type { CachedMetadata, Pos } from '../metadata';

/** Field codes, in the order the parser emits the fields. */
export const FIELDS = [
	'frontmatter',
	'frontmatterPosition',
	'frontmatterLinks',
	'links',
	'embeds',
	'tags',
	'headings',
	'sections',
	'listItems',
	'blocks',
] as const;
/** The field code of `frontmatter` (stored untagged). */
export const FRONTMATTER = 0;
const CODE_OF = new Map<string, number>(FIELDS.map((f, i) => [f, i]));
/** Fields left out of the snapshot and recomputed when read. */
export const DEFERRED_FIELDS: ReadonlySet<string> = new Set(['sections', 'listItems', 'blocks']);
/** Frontmatter holding numbers JSON cannot carry (±Infinity, NaN, -0), stored tagged. */
export const TAGGED_FRONTMATTER = 100;
/** A field of a newer parser, stored as `[name, value]`. */
export const EXTRA_FIELD = 101;
/** The tag that carries a number JSON would lose. */
const NUMBER_TAG = '\u0000vq-number';

/** A position as six numbers. */
function flatPos(p: Pos): number[] {
	return [p.start.line, p.start.col, p.start.offset, p.end.line, p.end.col, p.end.offset];
}

/** Six numbers back to a position. */
function expandPos(a: number[]): Pos {
	return { start: { line: a[0]!, col: a[1]!, offset: a[2]! }, end: { line: a[3]!, col: a[4]!, offset: a[5]! } };
}

/** A copy of each item with `position` flattened in place of the key, so the key order holds. */
function flattenItems(items: readonly object[]): unknown[] {
	return items.map((item) => {
		const out: Record<string, unknown> = {};
		for (const [k, v] of Object.entries(item)) out[k] = k === 'position' ? flatPos(v as Pos) : v;
		return out;
	});
}

/** Undo `flattenItems`, in place. */
function expandItems(items: Record<string, unknown>[]): void {
	for (const item of items) if (Array.isArray(item.position)) item.position = expandPos(item.position as number[]);
}

/** True when JSON would change a number in `value` (±Infinity and NaN become null, -0 becomes 0). */
export function hasLossyNumber(value: unknown): boolean {
	if (typeof value === 'number') return !Number.isFinite(value) || Object.is(value, -0);
	if (value === null || typeof value !== 'object') return false;
	for (const v of Object.values(value)) if (hasLossyNumber(v)) return true;
	return false;
}

/** Frontmatter with lossy numbers replaced by tagged strings. */
export function tagNumbers(value: unknown): unknown {
	if (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0)))
		return { [NUMBER_TAG]: Object.is(value, -0) ? '-0' : String(value) };
	if (Array.isArray(value)) return value.map(tagNumbers);
	if (value === null || typeof value !== 'object') return value;
	const out: Record<string, unknown> = {};
	for (const [k, v] of Object.entries(value)) defineValue(out, k, tagNumbers(v));
	return out;
}

/** Undo `tagNumbers`, in place where possible. */
export function untag(v: unknown): unknown {
	if (Array.isArray(v)) return v.map(untag);
	if (v === null || typeof v !== 'object') return v;
	const record = v as Record<string, unknown>;
	const tagged = record[NUMBER_TAG];
	if (typeof tagged === 'string' && Object.keys(record).length === 1) return tagged === '-0' ? -0 : Number(tagged);
	for (const [k, x] of Object.entries(record)) defineValue(record, k, untag(x));
	return record;
}

/** An own, enumerable, writable property (also for `__proto__`). */
function defineValue(target: object, key: string, value: unknown): void {
	Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A field's stored JSON, or null for a deferred field (present, not stored). */
function encodeField(name: string, value: unknown): { code: number; json: string | null } {
	const code = CODE_OF.get(name);
	if (code === undefined) return { code: EXTRA_FIELD, json: JSON.stringify([name, value]) }; // a field of a newer parser: kept as is
	if (DEFERRED_FIELDS.has(name)) return { code, json: null };
	switch (name) {
		case 'frontmatter':
			return hasLossyNumber(value)
				? { code: TAGGED_FRONTMATTER, json: JSON.stringify(tagNumbers(value)) }
				: { code, json: JSON.stringify(value) };
		case 'frontmatterPosition':
			return { code, json: JSON.stringify(flatPos(value as Pos)) };
		case 'links':
		case 'embeds':
		case 'tags':
		case 'headings':
			return { code, json: JSON.stringify(flattenItems(value as object[])) };
		default:
			return { code, json: JSON.stringify(value) };
	}
}

/**
 * Hands each of the note's fields to `put` as (code, JSON) in the note's key order; a deferred
 * field comes with an empty JSON (present, not stored).
 */
export function encodeMetadata(metadata: CachedMetadata, put: (code: number, json: string) => void): void {
	// Metadata read from a snapshot keeps its fields behind accessors: its toJSON gives them all.
	const plain = (metadata as { toJSON?: () => object }).toJSON?.() ?? metadata;
	for (const [name, value] of Object.entries(plain)) {
		if (value === undefined) continue;
		const { code, json } = encodeField(name, value);
		put(code, json ?? '');
	}
}

/** Decode one stored field: its name and value (throws on bytes that are not its JSON). */
export function decodeField(code: number, json: string): [string, unknown] {
	if (code === TAGGED_FRONTMATTER) return ['frontmatter', untag(JSON.parse(json))];
	if (code === EXTRA_FIELD) return JSON.parse(json) as [string, unknown];
	const name: string | undefined = FIELDS[code];
	if (name === undefined) throw new Error(`unknown metadata field code ${code}`);
	const value: unknown = JSON.parse(json);
	if (name === 'frontmatterPosition') return [name, expandPos(value as number[])];
	if (name === 'links' || name === 'embeds' || name === 'tags' || name === 'headings')
		expandItems(value as Record<string, unknown>[]);
	return [name, value];
}

/** Fields small enough to read whole for every note (frontmatter and its links, tags): kept apart from the bulk (body links, embeds, headings). */
const HOT_CODES: ReadonlySet<number> = new Set([FRONTMATTER, TAGGED_FRONTMATTER, 1, 2, 5, 7, 8, 9]);

/** Whether field `code` is stored in the hot heap (`meta`) rather than the cold one (`metaCold`). */
export function isHot(code: number): boolean {
	return HOT_CODES.has(code);
}

/** Field codes per value, quadruples of (code, start, end, check). */
export const RANGE_WIDTH = 4;
