/**
 * Bounds on parsed frontmatter. js-yaml shares one object for every `*alias` of an `&anchor`, so
 * 500 bytes of anchors each listing the previous one nine times expand to billions of values for
 * anything that walks them as a tree (links, search, JSON output). A frontmatter whose values,
 * aliases expanded, outnumber its own characters, or that nests deeper than any real note, is
 * reported as unreadable instead of being handed on.
 */

/** Nesting deeper than this is refused. */
export const MAX_FRONTMATTER_DEPTH = 64; // why: real frontmatter nests 2–3 levels; 64 keeps every recursive walker far from the stack limit.
/** Values always allowed, whatever the text length. */
const MIN_VALUE_BUDGET = 1000;

/**
 * Why `value` (parsed from `chars` characters of YAML) must not be used, or null when it is
 * within bounds. Walks iteratively and stops as soon as a bound is passed.
 */
export function frontmatterBoundsError(value: unknown, chars: number): string | null {
	const budget = Math.max(MIN_VALUE_BUDGET, chars);
	const stack: [unknown, number][] = [[value, 0]];
	let seen = 0;
	while (stack.length > 0) {
		const [node, depth] = stack.pop() as [unknown, number];
		if (++seen > budget)
			return `frontmatter expands to more than ${budget} values (YAML aliases repeating anchors); not read`;
		if (typeof node !== 'object' || node === null) continue;
		if (depth >= MAX_FRONTMATTER_DEPTH)
			return `frontmatter nests deeper than ${MAX_FRONTMATTER_DEPTH} levels; not read`;
		const children = Array.isArray(node) ? (node as unknown[]) : Object.values(node as Record<string, unknown>);
		for (const child of children) stack.push([child, depth + 1]);
	}
	return null;
}
