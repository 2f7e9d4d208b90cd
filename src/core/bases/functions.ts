/**
 * The registry of supported functions: globals and the methods of each type. An unknown name is
 * refused before anything runs, with the list of what is supported; a method called on a type
 * that lacks it names the types that have it.
 */
import type { Node } from './ast';
import { walk } from './ast';
import { BaseError } from './errors';
import { DATE_FUNCTIONS } from './fn-date';
import { GLOBAL_FUNCTIONS } from './fn-global';
import { LIST_FUNCTIONS } from './fn-list';
import { ANY_FUNCTIONS, FILE_FUNCTIONS, LINK_FUNCTIONS, OBJECT_FUNCTIONS, REGEX_FUNCTIONS } from './fn-misc';
import { NUMBER_FUNCTIONS } from './fn-number';
import { STRING_FUNCTIONS } from './fn-string';
import type { BaseFunction, FunctionTable } from './fn-types';
import type { TypeName } from './values';

export { GLOBAL_FUNCTIONS };

/** Methods by receiver type (`any` applies to every value). */
export const METHODS: Readonly<Partial<Record<TypeName | 'any', FunctionTable>>> = {
	any: ANY_FUNCTIONS,
	string: STRING_FUNCTIONS,
	number: NUMBER_FUNCTIONS,
	list: LIST_FUNCTIONS,
	date: DATE_FUNCTIONS,
	file: FILE_FUNCTIONS,
	link: LINK_FUNCTIONS,
	object: OBJECT_FUNCTIONS,
	regexp: REGEX_FUNCTIONS,
};

const METHOD_NAMES = new Set(Object.values(METHODS).flatMap((t) => Object.keys(t)));

/** Every supported name, `global()` and `type.method()`, for errors and the docs. */
export function supportedFunctions(): string[] {
	const out = Object.keys(GLOBAL_FUNCTIONS).map((n) => `${n}()`);
	for (const [type, table] of Object.entries(METHODS)) for (const n of Object.keys(table)) out.push(`${type}.${n}()`);
	return out;
}

/** The method `name` for a receiver of `type`, looking at the type's own table, then `any`. */
export function methodFor(type: TypeName, name: string): BaseFunction | undefined {
	const own = METHODS[type];
	if (own && Object.prototype.hasOwnProperty.call(own, name)) return own[name];
	return Object.prototype.hasOwnProperty.call(ANY_FUNCTIONS, name) ? ANY_FUNCTIONS[name] : undefined;
}

/** The types that have a method `name` (for a type error). */
export function typesWith(name: string): string[] {
	return Object.entries(METHODS)
		.filter(([, t]) => Object.prototype.hasOwnProperty.call(t, name))
		.map(([type]) => type);
}

/** Refuse unknown functions and wrong argument counts of globals before evaluation, naming the position. */
export function checkFunctions(text: string, root: Node): void {
	for (const node of walk(root)) {
		if (node.t === 'call') {
			const f = Object.prototype.hasOwnProperty.call(GLOBAL_FUNCTIONS, node.name)
				? GLOBAL_FUNCTIONS[node.name]
				: undefined;
			if (f === undefined)
				throw new BaseError(
					`unknown function; supported global functions: ${Object.keys(GLOBAL_FUNCTIONS).join(', ')}`,
					text,
					node.pos,
					`${node.name}()`,
				);
			if (node.args.length < f.min || node.args.length > f.max)
				throw new BaseError(
					`takes ${arity(f)}, not ${node.args.length} (${f.signature})`,
					text,
					node.pos,
					`${node.name}()`,
				);
		} else if (node.t === 'method' && !METHOD_NAMES.has(node.name)) {
			throw new BaseError(
				`unknown function; supported methods: ${[...METHOD_NAMES].sort().join(', ')}`,
				text,
				node.pos,
				`${node.name}()`,
			);
		}
	}
}

/** "1 argument", "1 to 2 arguments". */
export function arity(f: BaseFunction): string {
	const n = (k: number): string => `${k} argument${k === 1 ? '' : 's'}`;
	return f.min === f.max ? n(f.min) : f.max >= 100 ? `at least ${n(f.min)}` : `${f.min} to ${n(f.max)}`;
}
