import { closest } from '../suggest';
import { parseDate } from './dates';
import type { FieldSpec, Schema } from './types';

/** A rejected parameter: the message names it and what the schema allows; suggestions are the near misses. */
export interface Rejection {
	error: string;
	suggestions: string[];
}

/** The operators of a `where` predicate; the ordering ones need a number, date or ordered enum field. */
export type Operator = '=' | '!=' | '>' | '>=' | '<' | '<=';

/** Operators that compare by order rather than by equality. */
export const ORDERING: readonly Operator[] = ['>', '>=', '<', '<='];

/** A near-miss rejection: `<param>: <problem>; the schema allows: …; did you mean "…"?`. */
export function reject(param: string, problem: string, allowed: readonly string[], wanted: string): Rejection {
	const near = closest(wanted, allowed);
	const hint = near.length > 0 ? `; did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : '';
	return {
		error: `${param}: ${problem}; the schema allows: ${allowed.join(', ')}${hint}`,
		suggestions: near.map((n) => `did you mean "${n}"?`),
	};
}

/** The field named `name`, or a rejection listing the schema's field names. */
export function fieldOf(schema: Schema, param: string, name: string): FieldSpec | Rejection {
	const spec = schema.fields.get(name);
	return spec ?? reject(param, `unknown field "${name}"`, [...schema.fields.keys()].sort(), name);
}

/** A number as a query or a note writes it (`7`, `7.5`, `"7"`), or null. */
export function toNumber(value: unknown): number | null {
	if (typeof value === 'number') return Number.isFinite(value) ? value : null;
	if (typeof value !== 'string' || value.trim() === '') return null;
	const n = Number(value.trim());
	return Number.isFinite(n) ? n : null;
}

/** The values `spec` allows, narrowed by the value its parent field is given in the same query (`status` for `type=claim`). */
export function allowedValues(
	spec: FieldSpec,
	parentValue: string | undefined,
): { values: readonly string[]; scope: string } {
	const dependent = spec.dependsOn;
	if (dependent && parentValue !== undefined && Object.hasOwn(dependent.values, parentValue)) {
		return { values: dependent.values[parentValue]!, scope: ` for ${dependent.field} ${parentValue}` };
	}
	return { values: spec.values ?? [], scope: '' };
}

/** A number as a person types it in a query: digits, an optional sign and fraction; never hex, exponents or blanks (issue 15). */
const PLAIN_DECIMAL = /^-?[0-9]{1,15}(\.[0-9]{1,15})?$/;

/**
 * Check one predicate's value against its field: enum and restricted-list values must be
 * allowed; numbers, dates and checkboxes must parse; ordering operators need an ordered type.
 */
export function checkValue(
	param: string,
	spec: FieldSpec,
	op: Operator,
	value: string,
	parentValue?: string,
): Rejection | null {
	const ordered = spec.type === 'number' || spec.type === 'date' || (spec.type === 'enum' && spec.ordered === true);
	if (ORDERING.includes(op) && !ordered) {
		return {
			error: `${param}: "${op}" compares numbers, dates and ordered enums; ${spec.name} is ${spec.type === 'enum' ? 'an unordered enum' : `a ${spec.type} field`} (use = or !=)`,
			suggestions: [],
		};
	}
	switch (spec.type) {
		case 'number':
			return PLAIN_DECIMAL.test(value) && toNumber(value) !== null
				? null
				: {
						error: `${param}: ${spec.name} is a number field; "${value}" is not a number written in plain decimal (like 7, -2 or 4.5)`,
						suggestions: [],
					};
		case 'date':
			return parseDate(value) === null
				? {
						error: `${param}: ${spec.name} is a date field; "${value}" is not a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM)`,
						suggestions: [],
					}
				: null;
		case 'checkbox':
			return value === 'true' || value === 'false'
				? null
				: { error: `${param}: ${spec.name} is a checkbox; use true or false, not "${value}"`, suggestions: [] };
		case 'enum':
		case 'list': {
			const { values, scope } = allowedValues(spec, parentValue);
			if (values.length === 0 || values.includes(value)) return null;
			return reject(param, `"${value}" is not a valid ${spec.name}${scope}`, values, value);
		}
		default:
			return null;
	}
}
