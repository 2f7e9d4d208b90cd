import { folderPrefix } from './paths';

/**
 * Sort paths the seed's way: authority tiers first (facts/ and decisions/, then insights/ and
 * research/, …), then everything else; within a tier by path. A tier folder matches at any
 * depth (`vault/facts/x.md` is in `facts/`), because vaults often nest the seed's layout.
 */
export function byAuthority<T>(items: T[], pathOf: (item: T) => string, tiers: string[][]): T[] {
	const prefixes = tiers.map((tier) => tier.map(folderPrefix));
	const tierOf = (path: string): number => {
		const padded = `/${path}`;
		const index = prefixes.findIndex((tier) => tier.some((prefix) => padded.includes(`/${prefix}`)));
		return index < 0 ? prefixes.length : index;
	};
	return items
		.map((item) => ({ item, path: pathOf(item), tier: tierOf(pathOf(item)) }))
		.sort((a, b) => a.tier - b.tier || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
		.map((entry) => entry.item);
}
