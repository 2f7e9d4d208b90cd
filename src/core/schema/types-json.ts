import { isMapping } from './schema-block';
import type { FieldSpec, FieldType } from './types';

/** Obsidian's property types (Settings → Properties) as schema field types. */
const OBSIDIAN_TYPES: Record<string, FieldType> = {
	text: 'text',
	multitext: 'list',
	number: 'number',
	checkbox: 'checkbox',
	date: 'date',
	datetime: 'date',
	aliases: 'list',
	tags: 'list',
};

/**
 * Fields typed by `.obsidian/types.json` (`{"types": {"rating": "number", …}}`). Unknown
 * property types are left out and reported, since guessing a type would make comparisons lie.
 */
export function typesJsonFields(text: string): { fields: FieldSpec[]; notes: string[] } {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		return {
			fields: [],
			notes: [`types.json not used: ${error instanceof Error ? error.message : String(error)}`],
		};
	}
	const types = isMapping(parsed) ? parsed.types : undefined;
	if (!isMapping(types)) return { fields: [], notes: ['types.json not used: it has no "types" object'] };
	const fields: FieldSpec[] = [];
	const unknown: string[] = [];
	for (const [name, value] of Object.entries(types)) {
		const type =
			typeof value === 'string' && Object.hasOwn(OBSIDIAN_TYPES, value) ? OBSIDIAN_TYPES[value] : undefined;
		if (type) fields.push({ name, type, origin: 'types.json' });
		else unknown.push(`${name} (${JSON.stringify(value)})`);
	}
	const notes =
		unknown.length > 0
			? [`types.json: property types not understood, left out of the schema: ${unknown.join(', ')}`]
			: [];
	return { fields, notes };
}
