import type { NoteSource } from '../port';
import { closest } from '../suggest';
import { dayString } from './dates';
import { scanMarkdown, type MarkdownBlock } from './markdown';
import { registryFields } from './registry';
import { blockFields, isMapping } from './schema-block';
import { typesJsonFields } from './types-json';
import { SchemaError, type FieldSpec, type Schema } from './types';

/** A schema file the caller read itself (the CLI's `--schema` pointing outside the vault). */
export interface SchemaFile {
	/** The path as reports name it (absolute). */
	path: string;
	text: string;
	/** Modification time in ms, or null when unknown. */
	mtime: number | null;
}

/** Where the schema comes from: a note of the vault (vault-relative path), or a file already read. */
export type SchemaLocation = { kind: 'vault'; path: string } | { kind: 'file'; file: SchemaFile };

/** `vault/path` for reports: the absolute path in Node, `<vault name>/<path>` inside Obsidian. */
export function vaultFilePath(source: NoteSource, path: string): string {
	return `${source.vaultPath.replace(/[/\\]+$/, '')}/${path}`;
}

/**
 * The missing-schema failure: the path tried, what a schema note holds, and the way to get one
 * (`vault-query schema draft`), since a vault without one cannot be read schema-strictly at all.
 */
export function missingSchemaMessage(shown: string): string {
	return `${shown} not found. Schema-strict reads need a schema note that declares the frontmatter fields (a \`\`\`yaml block with fields:, or "## Type registry" sections; see docs/schema.md). ${CLI_SCHEMA_ADVICE}`;
}

/** How the CLI says to get a schema note; a face with other terms (the MCP tools) replaces exactly this sentence. */
export const CLI_SCHEMA_ADVICE =
	'Draft one from this vault with `vault-query schema draft > schema.md` (in Obsidian: the "Copy schema draft" command), review it, then save it at that path or pass --schema schema.md';

/** Read the schema note from the vault, or fail closed naming the path tried. */
async function readVaultSchema(source: NoteSource, path: string): Promise<SchemaFile> {
	const clean = path
		.trim()
		.replace(/\\/g, '/')
		.replace(/^\.?\/+/, '');
	const shown = vaultFilePath(source, clean);
	// A side file by explicit path: a schema note in a dot-folder (`.meta/schema.md`) is found too.
	let text: string | null;
	try {
		text = await source.readSideFile(clean);
	} catch (error) {
		throw new SchemaError(`${shown} could not be read (${error instanceof Error ? error.message : String(error)})`);
	}
	if (text === null) throw new SchemaError(missingSchemaMessage(shown));
	return { path: shown, text, mtime: source.getMtime(clean) };
}

/**
 * The schema block: the one fenced `yaml` block with a top-level `fields:` key. Other yaml blocks
 * (frontmatter examples are common in schema notes) are ignored; two schema blocks are an error
 * because merging them silently would hide which one the author meant.
 */
function schemaBlock(source: NoteSource, blocks: readonly MarkdownBlock[], shown: string): FieldSpec[] {
	const candidates = blocks.filter(
		(b): b is Extract<MarkdownBlock, { kind: 'fence' }> =>
			b.kind === 'fence' && (b.info === 'yaml' || b.info === 'yml') && /^fields\s*:/m.test(b.body),
	);
	if (candidates.length > 1)
		throw new SchemaError(
			`${shown} has ${candidates.length} schema blocks (yaml with fields:, lines ${candidates.map((b) => b.line).join(' and ')}); keep one`,
		);
	if (candidates.length === 0) return [];
	const block = candidates[0]!;
	let parsed: unknown;
	try {
		parsed = source.parseYaml(block.body);
	} catch (error) {
		throw new SchemaError(
			`${shown}: the schema block at line ${block.line} is not valid YAML (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
		);
	}
	if (!isMapping(parsed))
		throw new SchemaError(`${shown}: the schema block at line ${block.line} must be a mapping with fields:`);
	return naming(shown, () => blockFields(parsed));
}

/** Run `read`; a SchemaError it throws is thrown again naming the schema note. */
function naming<T>(shown: string, read: () => T): T {
	try {
		return read();
	} catch (error) {
		if (error instanceof SchemaError) throw new SchemaError(`${shown}: ${error.message}`);
		throw error;
	}
}

/** Obsidian's property types from `<configDir>/types.json`; a missing file adds nothing, an unreadable one is reported. */
async function obsidianTypes(source: NoteSource): Promise<{ fields: FieldSpec[]; notes: string[] }> {
	let text: string | null;
	try {
		text = await source.readConfigFile('types.json');
	} catch (error) {
		return {
			fields: [],
			notes: [
				`${source.configDir}/types.json not used: ${error instanceof Error ? error.message : String(error)}`,
			],
		};
	}
	return text === null ? { fields: [], notes: [] } : typesJsonFields(text);
}

/**
 * A schema note's declaration that narrows Obsidian's property type rather than contradicting it:
 * an enum or a link is text to Obsidian. Not worth a note (a drafted schema does this on purpose).
 */
function refines(declared: FieldSpec, spec: FieldSpec): boolean {
	return (
		spec.origin === 'types.json' && spec.type === 'text' && (declared.type === 'enum' || declared.type === 'link')
	);
}

/** Add `extra` fields not yet declared; a field declared again is noted, the earlier declaration wins. */
function merge(fields: Map<string, FieldSpec>, extra: readonly FieldSpec[], notes: string[]): void {
	for (const spec of extra) {
		const declared = fields.get(spec.name);
		if (!declared) fields.set(spec.name, spec);
		else if ((declared.type !== spec.type && !refines(declared, spec)) || spec.origin === 'registry')
			notes.push(
				`${spec.name}: the ${declared.origin} declaration (${declared.type}) is used; the ${spec.origin} one (${spec.type}) is ignored`,
			);
	}
}

/** `depends_on` must name a declared field (from the block or a registry), and key its lists by that field's values. */
function checkDependents(fields: ReadonlyMap<string, FieldSpec>, shown: string): void {
	for (const spec of fields.values()) {
		if (!spec.dependsOn) continue;
		const on = spec.dependsOn.field;
		const parent = fields.get(on);
		if (!parent) {
			const near = closest(on, fields.keys());
			throw new SchemaError(
				`${shown}: field "${spec.name}" depends_on "${on}", which the schema does not declare${near.length > 0 ? `; did you mean "${near[0]}"?` : ''}`,
			);
		}
		if (!parent.values) continue;
		for (const key of Object.keys(spec.dependsOn.values)) {
			if (parent.values.includes(key)) continue;
			const near = closest(key, parent.values);
			throw new SchemaError(
				`${shown}: field "${spec.name}" lists values for ${spec.dependsOn.field} "${key}", which is not one of ${parent.values.join(', ')}${near.length > 0 ? `; did you mean "${near[0]}"?` : ''}`,
			);
		}
	}
}

/**
 * Load the schema: the schema note's yaml block, then its registry sections, then Obsidian's
 * `types.json` for fields the note does not declare. Throws `SchemaError` (fail closed) when the
 * note is missing, unreadable, malformed or declares nothing.
 */
export async function loadSchema(source: NoteSource, location: SchemaLocation): Promise<Schema> {
	const file = location.kind === 'file' ? location.file : await readVaultSchema(source, location.path);
	const blocks = scanMarkdown(file.text);
	const notes: string[] = [];
	const fields = new Map<string, FieldSpec>();
	merge(fields, schemaBlock(source, blocks, file.path), notes);
	merge(
		fields,
		naming(file.path, () => registryFields(blocks)),
		notes,
	);
	if (fields.size === 0)
		throw new SchemaError(
			`${file.path} declares no fields: add a \`\`\`yaml block with fields: or a "## Type registry" section (see docs/schema.md)`,
		);
	const types = await obsidianTypes(source);
	merge(fields, types.fields, notes);
	notes.push(...types.notes);
	checkDependents(fields, file.path);
	return { path: file.path, modified: file.mtime === null ? null : dayString(file.mtime), fields, notes };
}
