import { closest } from '../suggest';
import { FIELD_TYPES, SchemaError, type DependentValues, type FieldSpec, type FieldType } from './types';

/**
 * The canonical schema: a fenced `yaml` block whose top-level `fields:` maps each field name to
 * its declaration — a type name (`last_verified: date`), a list of enum values
 * (`domain: [investing, meta]`), or a mapping with `type`, `values`, `ordered`, `depends_on` and
 * an ignored `description`. Anything else is a schema error: a typo in the schema must not
 * silently loosen validation.
 */

/** Keys a field's mapping may hold. */
const SPEC_KEYS = ['type', 'values', 'ordered', 'depends_on', 'description'];

/** A "did you mean" tail for an unknown word, or ''. */
function hint(word: string, candidates: Iterable<string>): string {
	const near = closest(word, candidates);
	return near.length > 0 ? `; did you mean "${near[0]}"?` : '';
}

/** True for a plain YAML mapping. */
export function isMapping(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A YAML list of scalars as strings, or a SchemaError naming the field. */
function valueList(value: unknown, field: string): string[] {
	if (!Array.isArray(value)) throw new SchemaError(`field "${field}": values must be a list, e.g. [a, b]`);
	return value.map((item) => {
		if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean')
			return String(item).trim();
		throw new SchemaError(`field "${field}": values must be plain words or numbers, got ${JSON.stringify(item)}`);
	});
}

/** The field's type name, checked. */
function fieldType(value: unknown, field: string): FieldType {
	const found = FIELD_TYPES.find((type) => type === value);
	if (found) return found;
	throw new SchemaError(
		`field "${field}": unknown type ${JSON.stringify(value)}; types are ${FIELD_TYPES.join(', ')}${typeof value === 'string' ? hint(value, FIELD_TYPES) : ''}`,
	);
}

/** `depends_on: type` with `values:` mapping each value of `type` to a list. */
function dependentValues(spec: Record<string, unknown>, field: string): DependentValues {
	const on = spec.depends_on;
	if (typeof on !== 'string' || on.trim() === '')
		throw new SchemaError(`field "${field}": depends_on must name another field`);
	if (!isMapping(spec.values))
		throw new SchemaError(`field "${field}": with depends_on, values must map each value of "${on}" to a list`);
	const values: Record<string, string[]> = {};
	for (const [key, list] of Object.entries(spec.values)) values[key] = valueList(list, `${field}.values.${key}`);
	return { field: on.trim(), values };
}

/** One field's declaration. */
function fieldSpec(name: string, raw: unknown): FieldSpec {
	if (typeof raw === 'string') {
		const type = fieldType(raw.trim(), name);
		if (type === 'enum') throw new SchemaError(`field "${name}": an enum needs its values, e.g. ${name}: [a, b]`);
		return { name, type, origin: 'schema block' };
	}
	if (Array.isArray(raw)) return { name, type: 'enum', values: valueList(raw, name), origin: 'schema block' };
	if (!isMapping(raw)) throw new SchemaError(`field "${name}": expected a type name, a list of values or a mapping`);
	for (const key of Object.keys(raw)) {
		if (!SPEC_KEYS.includes(key))
			throw new SchemaError(
				`field "${name}": unknown key "${key}"; a field takes ${SPEC_KEYS.join(', ')}${hint(key, SPEC_KEYS)}`,
			);
	}
	const type = raw.type === undefined && raw.values !== undefined ? 'enum' : fieldType(raw.type, name);
	const spec: FieldSpec = { name, type, origin: 'schema block' };
	if (raw.depends_on !== undefined) {
		spec.dependsOn = dependentValues(raw, name);
		spec.values = [...new Set(Object.values(spec.dependsOn.values).flat())];
	} else if (raw.values !== undefined) {
		spec.values = valueList(raw.values, name);
	}
	if (spec.values !== undefined && type !== 'enum' && type !== 'list')
		throw new SchemaError(`field "${name}": only enum and list fields take values (this one is ${type})`);
	if (type === 'enum' && (spec.values ?? []).length === 0)
		throw new SchemaError(`field "${name}": an enum needs at least one value`);
	if (raw.ordered !== undefined) {
		if (typeof raw.ordered !== 'boolean') throw new SchemaError(`field "${name}": ordered must be true or false`);
		if (raw.ordered && type !== 'enum') throw new SchemaError(`field "${name}": only an enum can be ordered`);
		if (raw.ordered) spec.ordered = true;
	}
	return spec;
}

/** The fields of a parsed schema block (`{ fields: {...} }`); throws SchemaError naming the bad field. */
export function blockFields(parsed: Record<string, unknown>): FieldSpec[] {
	const unknown = Object.keys(parsed).filter((key) => key !== 'fields');
	if (unknown.length > 0)
		throw new SchemaError(`unknown top-level key "${unknown[0]}"; the schema block holds only fields:`);
	if (!isMapping(parsed.fields)) throw new SchemaError('fields: must map each field name to its declaration');
	return Object.entries(parsed.fields).map(([name, raw]) => fieldSpec(name, raw));
}
