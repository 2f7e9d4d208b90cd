/** The CLI's index parts (core/snapshot/index-parts.ts) on its cache folder, with Node's codec host. */
import { IndexParts } from '../../core/snapshot/index-parts';
import type { SnapshotStore } from '../../core/snapshot/port';
import { nodeCodecHost } from './codec-host';
import type { CachedVault } from './open-cached';

export { IndexParts, PART_KINDS, partKey, type PartKind, type PartsReport } from '../../core/snapshot/index-parts';

/** The index parts of a vault just opened through its snapshot. */
export function indexPartsOf(
	opened: CachedVault,
	store: SnapshotStore,
	tool: string,
	buildTrigrams: boolean,
): IndexParts {
	return new IndexParts({
		store,
		host: nodeCodecHost,
		vaultKey: opened.key,
		tool,
		vaultSettings: JSON.stringify([opened.settings, opened.source.userIgnoreFilters]),
		fingerprints: opened.fingerprints,
		buildTrigrams,
	});
}
