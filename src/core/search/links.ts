/** The port's `resolvedLinks` inverted, for the `backlinks:` filter and the backlinks of results. */

/** Target path → source paths, from a `resolvedLinks` map. */
export function invertLinks(resolved: Record<string, Record<string, number>>): Map<string, string[]> {
	const out = new Map<string, string[]>();
	for (const src of Object.keys(resolved)) {
		for (const dest of Object.keys(resolved[src])) {
			const list = out.get(dest);
			if (list) list.push(src);
			else out.set(dest, [src]);
		}
	}
	return out;
}
