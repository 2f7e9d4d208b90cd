/**
 * What a base reads about the vault, behind one small interface the engine fills from its
 * `NoteSource` (Obsidian-exact properties, tags, resolved links, backlinks), and the typed values
 * of one file (`file.*`, `note.*`) built lazily from it.
 */
import type { CachedMetadata } from '../metadata';
import { getAllTags } from '../obsidian-rules';
import { baseName, fileName, folderOf } from '../paths';
import { linkpathOf } from '../link-graph';
import { parseDate } from './dates';
import { objectValue, type FileValue, type LinkValue, type ObjectValue, type Value } from './values';

/** A file's size and times; null where the host does not know them. */
export interface FileStat {
	size: number | null;
	ctime: number | null;
	mtime: number | null;
}

/** The vault as a base sees it. */
export interface BaseData {
	/** Every file a base looks at (notes and attachments in scope), in walk order. */
	files(): readonly string[];
	/** Whether `path` is a file of the vault (in scope or not). */
	exists(path: string): boolean;
	/** The note's metadata, or null (attachments, unparsed notes). */
	metadata(path: string): CachedMetadata | null;
	/** Obsidian's link resolution from `from`. */
	resolve(linkpath: string, from: string): string | null;
	/** The notes linking to `path`. */
	backlinks(path: string): readonly string[];
	/** Size and times. */
	stat(path: string): FileStat;
	/** Obsidian's property types (`types.json`): name → `date`, `datetime`, `number`, `checkbox`, … */
	readonly propertyTypes: Readonly<Record<string, string>>;
}

const WIKILINK = /^!?\[\[([^\]|]*)(?:\|([^\]]*))?\]\]$/;
const MAX_DEPTH = 32;

/** A link value from link text as written, resolved from `from`. */
export function linkFrom(data: BaseData, target: string, from: string, display: Value = null): LinkValue {
	const linkpath = linkpathOf(target);
	const path = linkpath === '' ? null : data.resolve(linkpath, from);
	return { kind: 'link', target, path, display };
}

/** A file value. */
export function fileValue(path: string): FileValue {
	return { kind: 'file', path };
}

/** A frontmatter value as a typed value: `[[…]]` text is a link, date-typed text a date, maps objects. */
export function propertyValueOf(data: BaseData, raw: unknown, key: string, from: string, depth = 0): Value {
	if (raw === null || raw === undefined) return null;
	if (depth > MAX_DEPTH) return null;
	if (typeof raw === 'number' || typeof raw === 'boolean') return raw;
	if (typeof raw === 'string') {
		const link = WIKILINK.exec(raw.trim());
		if (link) return linkFrom(data, link[1]!, from, link[2] ?? null);
		const type = data.propertyTypes[key.toLowerCase()];
		if (type === 'date' || type === 'datetime') return parseDate(raw) ?? raw;
		if (type === 'number' && raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
		return raw;
	}
	if (raw instanceof Date) return { kind: 'date', ms: raw.getTime(), time: true };
	if (Array.isArray(raw))
		return raw.slice(0, 10_000).map((item) => propertyValueOf(data, item, key, from, depth + 1));
	if (typeof raw === 'object')
		return objectValue(
			Object.entries(raw as Record<string, unknown>).map(([k, v]) => [
				k,
				propertyValueOf(data, v, key, from, depth + 1),
			]),
		);
	return null;
}

/** The frontmatter key named `name`: exact first, then ignoring case (Obsidian's property names are case-insensitive). */
export function frontmatterKey(fm: Record<string, unknown> | undefined, name: string): string | null {
	if (!fm) return null;
	if (Object.prototype.hasOwnProperty.call(fm, name)) return name;
	const lower = name.toLowerCase();
	for (const key of Object.keys(fm)) if (key.toLowerCase() === lower) return key;
	return null;
}

/** The `file.*` fields Obsidian documents. */
export const FILE_FIELDS = [
	'name',
	'basename',
	'path',
	'folder',
	'ext',
	'size',
	'ctime',
	'mtime',
	'tags',
	'links',
	'backlinks',
	'embeds',
	'properties',
	'file',
] as const;

/** The typed values of files, each computed once per evaluation. */
export class FileModel {
	private readonly props = new Map<string, ObjectValue>();
	private readonly fields = new Map<string, Value>();

	constructor(readonly data: BaseData) {}

	/** `note.name` of `path` (null when absent): only that property is converted, so a filter on one key stays cheap. */
	property(path: string, name: string): Value {
		const whole = this.props.get(path);
		const fm = this.data.metadata(path)?.frontmatter;
		const key = frontmatterKey(fm, name);
		if (key === null) return null;
		if (whole) return whole.entries.get(key) ?? null;
		return propertyValueOf(this.data, fm![key], key, path);
	}

	/** `file.properties`: every frontmatter property, typed. */
	properties(path: string): ObjectValue {
		let props = this.props.get(path);
		if (!props) {
			const fm = this.data.metadata(path)?.frontmatter ?? {};
			props = objectValue(Object.entries(fm).map(([k, v]) => [k, propertyValueOf(this.data, v, k, path)]));
			this.props.set(path, props);
		}
		return props;
	}

	/** `file.<field>` of `path`, or undefined when `field` is not a file field. */
	field(path: string, field: string): Value | undefined {
		if (!(FILE_FIELDS as readonly string[]).includes(field)) return undefined;
		const key = `${field}\u0000${path}`;
		if (this.fields.has(key)) return this.fields.get(key)!;
		const value = this.compute(path, field);
		this.fields.set(key, value);
		return value;
	}

	private compute(path: string, field: string): Value {
		const name = fileName(path);
		const dot = name.lastIndexOf('.');
		switch (field) {
			case 'name':
				return name;
			case 'basename':
				return path.endsWith('.md') ? baseName(path) : dot > 0 ? name.slice(0, dot) : name;
			case 'path':
				return path;
			case 'folder':
				return folderOf(path);
			case 'ext':
				return dot > 0 ? name.slice(dot + 1) : '';
			case 'size':
				return this.data.stat(path).size;
			case 'ctime':
			case 'mtime': {
				const ms = this.data.stat(path)[field];
				return ms === null ? null : { kind: 'date', ms, time: true };
			}
			case 'tags':
				return this.tags(path);
			case 'links':
				return this.links(path, 'links');
			case 'embeds':
				return this.links(path, 'embeds');
			case 'backlinks':
				return this.data.backlinks(path).map((from) => linkFrom(this.data, from.replace(/\.md$/, ''), path));
			case 'properties':
				return this.properties(path);
			default:
				return fileValue(path);
		}
	}

	/** `file.tags`: the note's tags (frontmatter and body) without `#`, each once. */
	tags(path: string): string[] {
		const meta = this.data.metadata(path);
		if (!meta) return [];
		const seen = new Set<string>();
		const out: string[] = [];
		for (const tag of getAllTags(meta)) {
			const bare = tag.replace(/^#/, '');
			if (!seen.has(bare.toLowerCase())) {
				seen.add(bare.toLowerCase());
				out.push(bare);
			}
		}
		return out;
	}

	private links(path: string, kind: 'links' | 'embeds'): LinkValue[] {
		const meta = this.data.metadata(path);
		if (!meta) return [];
		const written =
			kind === 'embeds' ? (meta.embeds ?? []) : [...(meta.frontmatterLinks ?? []), ...(meta.links ?? [])];
		const seen = new Set<string>();
		const out: LinkValue[] = [];
		for (const link of written) {
			const value = linkFrom(this.data, link.link, path);
			const key = value.path ?? `?${value.target}`;
			if (seen.has(key)) continue;
			seen.add(key);
			out.push(value);
		}
		return out;
	}

	/** Whether `path` links to `target` (any internal link, frontmatter included). */
	linksTo(path: string, target: string): boolean {
		return (
			this.links(path, 'links').some((l) => l.path === target) ||
			this.links(path, 'embeds').some((l) => l.path === target)
		);
	}
}
