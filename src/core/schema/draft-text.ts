import type { DraftField, SchemaDraft } from './draft';
import { countOf } from '../size';

/**
 * The schema draft as a schema note: the seed's registry sections for the fields the seed keeps
 * there, then one fenced `yaml` block with `fields:` for everything else — the two forms the
 * schema reader (load.ts) accepts, so the printed note works as it stands.
 */

/** The seed's registry sections, in its order: heading → field. */
const REGISTRIES: readonly (readonly [string, string])[] = [
	['Type registry', 'type'],
	['Domain registry', 'domain'],
	['Status by type', 'status'],
	['Confidence extension', 'confidence'],
	['Maturity extension', 'maturity'],
	['Source type registry', 'source_type'],
];

/** How a section lists values, for the line that says how to fill it. */
const HOW: Record<string, string> = {
	default: 'one `- value` a line',
	status: 'one line per type: `- claim: active, archived`',
	// No greater-than sign here: the reader would take an example ordering for the real one.
	confidence: 'one `- value` a line, then one line ranking them, strongest first, separated by greater-than signs',
};

/** A YAML key written plainly when that is safe, else double-quoted (JSON strings are YAML). */
function yamlKey(name: string): string {
	return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(name) && !/^(true|false|null|yes|no|on|off|y|n)$/i.test(name)
		? name
		: JSON.stringify(name);
}

/** The field's line in the yaml block, with where its type came from as a comment. */
function yamlLine(field: DraftField): string {
	const declaration = field.values ? `[${field.values.map((v) => JSON.stringify(v)).join(', ')}]` : field.type;
	const why =
		field.from === 'types.json'
			? `typed in types.json, ${countOf(field.notes, 'note')}`
			: field.notes === 0
				? 'no note has a value yet'
				: `inferred from ${countOf(field.notes, 'note')}`;
	return `  ${yamlKey(field.name)}: ${declaration}  # ${why}`;
}

/** The values of a section: per-type lines, or one value a line and the ordering when there is one. */
function sectionValues(field: DraftField & { values: string[] }): string[] {
	if (field.byParent)
		return Object.entries(field.byParent.values).map(
			([parent, values]) => `- \`${parent}\`: ${values.map((v) => `\`${v}\``).join(', ')}`,
		);
	const lines = field.values.map((value) => `- \`${value}\``);
	if (field.ordered) lines.push('', `Ordering, strongest first: \`${field.values.join(' > ')}\``);
	else if (field.name === 'confidence')
		lines.push(
			'',
			'To filter with min_confidence, rank these on one line, strongest first, with a greater-than sign between each two.',
		);
	return lines;
}

/** A registry section: the values, or a line saying how to fill it. */
function registrySection(heading: string, name: string, field: DraftField | undefined): string[] {
	const lines = ['', `## ${heading}`, ''];
	if (field?.values) lines.push(...sectionValues({ ...field, values: field.values }));
	else if (field)
		lines.push(
			`\`${name}\` is not ${name === 'status' ? 'a short vocabulary under each type' : 'a short vocabulary'} in these notes, so it is declared as ${field.type} under Fields. To restrict it, list the allowed values here (${HOW[name] ?? HOW.default}) and remove it from Fields.`,
		);
	else
		lines.push(
			`No note has a \`${name}\` property. To use one, list its allowed values here (${HOW[name] ?? HOW.default}).`,
		);
	return lines;
}

/** Whether a field's values can be written in its section (a code span cannot hold a backtick; status needs its per-type lists). */
function registrable(field: DraftField | undefined): boolean {
	if (field?.values === undefined || field.values.some((value) => value.includes('`'))) return false;
	return field.name !== 'status' || field.byParent !== undefined;
}

/**
 * The draft as Markdown. `vaultName` and `configDir` are named in the preamble; `schemaPath` is
 * where the reader looks by default, so the user knows where to save it.
 */
export function renderSchemaDraft(
	draft: SchemaDraft,
	context: { vaultName: string; configDir: string; schemaPath: string },
): string {
	const byName = new Map(draft.fields.map((field) => [field.name, field]));
	const inRegistry = new Set(REGISTRIES.map(([, name]) => name).filter((name) => registrable(byName.get(name))));
	const lines = [
		'# Frontmatter schema',
		'',
		`Drafted by \`vault-query schema draft\` from the ${countOf(draft.withFrontmatter, 'note')} with frontmatter (of ${draft.notes} in scope) in ${context.vaultName}. Property types come from \`${context.configDir}/types.json\` where it types them, else from the values the notes hold; a text property with few, repeated values is drafted as an enum.`,
		'',
		`Review it — drop what no query should name, widen or tighten the enums — then save it as \`${context.schemaPath}\` in the vault, or anywhere else and pass \`--schema PATH\`. Schema-strict reads (lookup, filter, graph, text-search) reject a field or a value this note does not declare.`,
	];
	for (const [heading, name] of REGISTRIES) {
		const field = byName.get(name);
		// A field left in Fields is shown there with its values; the section only says why.
		lines.push(
			...registrySection(heading, name, field && !inRegistry.has(name) ? { ...field, values: undefined } : field),
		);
	}
	const rest = draft.fields.filter((field) => !inRegistry.has(field.name));
	lines.push(
		'',
		'## Fields',
		'',
		'```yaml',
		rest.length > 0 ? 'fields:' : 'fields: {}',
		...rest.map(yamlLine),
		'```',
	);
	if (draft.remarks.length > 0) lines.push('', ...draft.remarks.map((remark) => `Note: ${remark}`));
	return `${lines.join('\n')}\n`;
}
