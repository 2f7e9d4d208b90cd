import type { DraftField, SchemaDraft } from './draft';

/**
 * The schema draft as a schema note: the seed's registry sections for the fields the seed keeps
 * there, then one fenced `yaml` block with `fields:` for everything else — the two forms the
 * schema reader (load.ts) accepts, so the printed note works as it stands.
 */

/** The seed's registry sections, in its order: heading → field. */
const REGISTRIES: readonly (readonly [string, string])[] = [
	['Type registry', 'type'],
	['Domain registry', 'domain'],
	['Source type registry', 'source_type'],
];

/** A YAML key written plainly when that is safe, else double-quoted (JSON strings are YAML). */
function yamlKey(name: string): string {
	return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(name) && !/^(true|false|null|yes|no|on|off|y|n)$/i.test(name) ? name : JSON.stringify(name);
}

/** "1 note" / "2 notes". */
function notes(count: number): string {
	return `${count} note${count === 1 ? '' : 's'}`;
}

/** The field's line in the yaml block, with where its type came from as a comment. */
function yamlLine(field: DraftField): string {
	const declaration = field.values ? `[${field.values.map((v) => JSON.stringify(v)).join(', ')}]` : field.type;
	const why = field.from === 'types.json' ? `typed in types.json, ${notes(field.notes)}` : field.notes === 0 ? 'no note has a value yet' : `inferred from ${notes(field.notes)}`;
	return `  ${yamlKey(field.name)}: ${declaration}  # ${why}`;
}

/** A registry section: the values as a list, or a line saying how to fill it. */
function registrySection(heading: string, name: string, field: DraftField | undefined): string[] {
	const lines = ['', `## ${heading}`, ''];
	if (field?.values) lines.push(...field.values.map((value) => `- \`${value}\``));
	else if (field) lines.push(`\`${name}\` is not a short vocabulary in these notes, so it is declared as ${field.type} under Fields. To restrict it, list the allowed values here (one \`- value\` a line) and remove it from Fields.`);
	else lines.push(`No note has a \`${name}\` property. To use one, list its allowed values here, one \`- value\` a line.`);
	return lines;
}

/** Whether a field's values can be written as registry list items (a code span cannot hold a backtick). */
function registrable(field: DraftField | undefined): boolean {
	return field?.values !== undefined && field.values.every((value) => !value.includes('`'));
}

/**
 * The draft as Markdown. `vaultName` and `configDir` are named in the preamble; `schemaPath` is
 * where the reader looks by default, so the user knows where to save it.
 */
export function renderSchemaDraft(draft: SchemaDraft, context: { vaultName: string; configDir: string; schemaPath: string }): string {
	const byName = new Map(draft.fields.map((field) => [field.name, field]));
	const inRegistry = new Set(REGISTRIES.map(([, name]) => name).filter((name) => registrable(byName.get(name))));
	const lines = [
		'# Frontmatter schema',
		'',
		`Drafted by \`vault-query schema draft\` from the ${notes(draft.withFrontmatter)} with frontmatter (of ${draft.notes} in scope) in ${context.vaultName}. Property types come from \`${context.configDir}/types.json\` where it types them, else from the values the notes hold; a text property with few, repeated values is drafted as an enum.`,
		'',
		`Review it — drop what no query should name, widen or tighten the enums — then save it as \`${context.schemaPath}\` in the vault, or anywhere else and pass \`--schema PATH\`. Schema-strict reads (lookup, filter, graph, text-search) reject a field or a value this note does not declare.`,
	];
	for (const [heading, name] of REGISTRIES) {
		const field = byName.get(name);
		// A field left in Fields is shown there with its values; the section only says why.
		lines.push(...registrySection(heading, name, field && !inRegistry.has(name) ? { ...field, values: undefined } : field));
	}
	const rest = draft.fields.filter((field) => !inRegistry.has(field.name));
	lines.push('', '## Fields', '', '```yaml', rest.length > 0 ? 'fields:' : 'fields: {}', ...rest.map(yamlLine), '```');
	if (draft.remarks.length > 0) lines.push('', ...draft.remarks.map((remark) => `Note: ${remark}`));
	return `${lines.join('\n')}\n`;
}
