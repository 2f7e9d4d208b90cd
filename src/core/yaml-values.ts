/**
 * Reading values out of parsed YAML (frontmatter, schema blocks): one bounded flattener, and
 * property lookup by key. Bounded because a YAML alias bomb (`a: &a [*a, *a]` nested a few
 * levels) is a small text that parses to a graph whose tree expansion is exponential — and
 * every consumer here walks it as a tree.
 */
import type { FrontMatter } from './metadata';

/** A YAML scalar a property value can hold. */
export type YamlScalar = string | number | boolean;

/** Values visited per flattening at most. */
export const MAX_YAML_NODES = 10_000; // why: far above any real property (a list of a few hundred items), far below what a bomb expands to.

/**
 * Every scalar (string, number, boolean) in a YAML value, lists flattened in order; nested
 * objects are skipped (a property's value is a scalar or a list). Each list is visited once
 * (a shared or cyclic alias adds its items the first time only) and at most
 * {@link MAX_YAML_NODES} values are looked at, so a hostile value costs bounded time.
 */
export function yamlScalars(value: unknown): YamlScalar[] {
	const out: YamlScalar[] = [];
	const seen = new Set<unknown>();
	let budget = MAX_YAML_NODES;
	const walk = (v: unknown): void => {
		if (budget-- <= 0) return;
		if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out.push(v);
		else if (Array.isArray(v) && !seen.has(v)) {
			seen.add(v);
			for (const item of v) {
				if (budget <= 0) return;
				walk(item);
			}
		}
	};
	walk(value);
	return out;
}

/** Every scalar in a YAML value as text (numbers and booleans written out), lists flattened; bounded as {@link yamlScalars}. */
export function flattenValue(value: unknown): string[] {
	return yamlScalars(value).map(String);
}

/** A frontmatter value by key, matched case-insensitively when no key is spelled exactly so (the seed writes `Aliases:`, Obsidian `aliases:`). */
export function propertyValue(fm: FrontMatter | null | undefined, key: string): unknown {
	if (!fm) return undefined;
	if (Object.prototype.hasOwnProperty.call(fm, key)) return fm[key];
	const lower = key.toLowerCase();
	for (const k of Object.keys(fm)) if (k.toLowerCase() === lower) return fm[k];
	return undefined;
}
