/**
 * Methods of every value (Any type), of files, links, objects and regular expressions
 * ("Functions": Any, File, Link, Object, Regular expression).
 */
import { fileValue, linkFrom } from './data';
import { fn, type Call, type FunctionTable } from './fn-types';
import { regexMatches } from './regex';
import {
	filePathOf,
	isEmptyValue,
	textOf,
	truthy,
	typeOf,
	type FileValue,
	type LinkValue,
	type ObjectValue,
	type RegexValue,
	type Value,
} from './values';
import { isInFolder, folderPrefix } from '../paths';

/** Methods of every value. */
export const ANY_FUNCTIONS: FunctionTable = {
	isTruthy: fn('any.isTruthy(): boolean', 0, 0, (c) => truthy(c.self)),
	isType: fn('any.isType(type: string): boolean', 1, 1, (c) => {
		const want = textOf(c.args[0]!).toLowerCase();
		const type = typeOf(c.self);
		return want === type || (want === 'regex' && type === 'regexp') || (want === 'array' && type === 'list');
	}),
	toString: fn('any.toString(): string', 0, 0, (c) => textOf(c.self)),
	isEmpty: fn('any.isEmpty(): boolean', 0, 0, (c) => isEmptyValue(c.self)),
};

/** The path a file argument names: a file, a resolved link, or text resolved as a link from the row. */
export function pathArg(c: Call, v: Value): string | null {
	const path = filePathOf(v);
	if (path !== null) return path;
	if (typeof v === 'string') {
		if (c.env.model.data.exists(v)) return v;
		return linkFrom(c.env.model.data, v.replace(/^\[\[|\]\]$/g, ''), c.env.row ?? c.env.thisPath ?? '').path;
	}
	return null;
}

const selfFile = (c: Call): string => (c.self as FileValue).path;

/** Methods of files. */
export const FILE_FUNCTIONS: FunctionTable = {
	asLink: fn('file.asLink(display?: string): Link', 0, 1, (c) => ({
		kind: 'link',
		target: selfFile(c).replace(/\.md$/, ''),
		path: selfFile(c),
		display: c.args[0] ?? null,
	})),
	hasLink: fn('file.hasLink(otherFile: file | string): boolean', 1, 1, (c) => {
		const target = pathArg(c, c.args[0]!);
		return target !== null && c.env.model.linksTo(selfFile(c), target);
	}),
	hasProperty: fn('file.hasProperty(name: string): boolean', 1, 1, (c) => {
		const fm = c.env.model.data.metadata(selfFile(c))?.frontmatter;
		const want = textOf(c.args[0]!).toLowerCase();
		return fm !== undefined && Object.keys(fm).some((k) => k.toLowerCase() === want);
	}),
	hasTag: fn('file.hasTag(...values: string): boolean', 1, 100, (c) => {
		const tags = c.env.model.tags(selfFile(c)).map((t) => t.toLowerCase());
		return c.args.some((arg) => {
			const want = textOf(arg).replace(/^#/, '').toLowerCase();
			return tags.some((t) => t === want || t.startsWith(`${want}/`));
		});
	}),
	inFolder: fn('file.inFolder(folder: string): boolean', 1, 1, (c) => {
		const folder = textOf(c.args[0]!).replace(/^\/+|\/+$/g, '');
		return folder === '' || isInFolder(selfFile(c), folderPrefix(folder));
	}),
};

/** Methods of links. */
export const LINK_FUNCTIONS: FunctionTable = {
	asFile: fn('link.asFile(): file', 0, 0, (c) => {
		const path = (c.self as LinkValue).path;
		return path === null ? null : fileValue(path);
	}),
	linksTo: fn('link.linksTo(file): boolean', 1, 1, (c) => {
		const from = (c.self as LinkValue).path;
		const target = pathArg(c, c.args[0]!);
		return from !== null && target !== null && c.env.model.linksTo(from, target);
	}),
};

/** Methods of objects. */
export const OBJECT_FUNCTIONS: FunctionTable = {
	isEmpty: fn('object.isEmpty(): boolean', 0, 0, (c) => (c.self as ObjectValue).entries.size === 0),
	keys: fn('object.keys(): list', 0, 0, (c) => [...(c.self as ObjectValue).entries.keys()]),
	values: fn('object.values(): list', 0, 0, (c) => [...(c.self as ObjectValue).entries.values()]),
};

/** Methods of regular expressions. */
export const REGEX_FUNCTIONS: FunctionTable = {
	matches: fn('regexp.matches(value: string): boolean', 1, 1, (c) => regexMatches(c.self as RegexValue, c.args[0]!)),
};
