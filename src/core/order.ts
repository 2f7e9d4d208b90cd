import { folderPrefix } from './paths';

/** A sort key of one item: a string sorts ascending, a number descending (newest first). */
export type SortKey = string | number;

/** Plain code-unit order, so the answer never depends on the host's locale. */
function compare(a: SortKey, b: SortKey): number {
	if (typeof a === 'number' && typeof b === 'number') return b - a;
	const x = String(a);
	const y = String(b);
	return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Sort items by authority tier (when tiers are set: facts/ and decisions/, then insights/ and
 * research/, …, then everything else), then by `keyOf` (default: the path), then by path. A tier
 * folder matches at any depth (`vault/facts/x.md` is in `facts/`), because vaults often nest a
 * team's layout. No tiers (the default) is a plain sort.
 */
export function byAuthority<T>(
	items: readonly T[],
	pathOf: (item: T) => string,
	tiers: string[][],
	keyOf?: (path: string) => SortKey,
): T[] {
	const prefixes = tiers.map((tier) => tier.map(folderPrefix));
	const tierOf = (path: string): number => {
		const padded = `/${path}`;
		const index = prefixes.findIndex((tier) => tier.some((prefix) => padded.includes(`/${prefix}`)));
		return index < 0 ? prefixes.length : index;
	};
	return items
		.map((item) => {
			const path = pathOf(item);
			return { item, path, tier: tierOf(path), key: keyOf ? keyOf(path) : path };
		})
		.sort((a, b) => a.tier - b.tier || compare(a.key, b.key) || compare(a.path, b.path))
		.map((entry) => entry.item);
}
