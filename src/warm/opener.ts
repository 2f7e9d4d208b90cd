/**
 * How a long-lived CLI process (the MCP server, the background server) reads the vault: the
 * start goes through the index snapshot and saves it; a refresh that only saw notes written is a
 * patch of the previous open (patch-cached.ts), any other goes through the snapshot again, reusing
 * it for unchanged notes without rewriting it; `--no-cache` reads the vault whole every time.
 */
import { FedNotes } from '../core/search/fed-notes';
import { recordBuild } from '../node/snapshot/build-log';
import { FileSnapshotStore } from '../node/snapshot/file-store';
import { indexPartsOf } from '../node/snapshot/index-parts';
import { openCachedVault, type CachedVault } from '../node/snapshot/open-cached';
import { patchCachedVault } from '../node/snapshot/patch-cached';
import { openVault, type OpenVaultOptions } from '../node/vault-source';
import type { VaultOpener } from './session';

/** The opener of the vault at `vaultPath` with these walk bounds; `tool` stamps the snapshot and index parts (see buildStamp); `warn` takes a failed save's warning. */
export function warmOpener(
	vaultPath: string,
	bounds: OpenVaultOptions,
	noCache: boolean,
	tool: string,
	warn: (line: string) => void,
	progress?: (read: number, total: number) => void,
): VaultOpener {
	if (noCache)
		return async () => {
			const source = await openVault(vaultPath, bounds);
			recordBuild(vaultPath, source.listNotes().length);
			return { source, snapshot: null };
		};
	let previous: CachedVault | null = null;
	return async (first, changed, search) => {
		if (!first && previous !== null && changed !== undefined) {
			const patched = patchCachedVault(previous, changed, bounds);
			if (patched !== null) {
				previous = patched;
				return { source: patched.source, snapshot: patched.report, changed: patched.changed };
			}
		}
		const store = new FileSnapshotStore();
		// A refresh stats only what the watcher reported; the rest is as the previous read found it.
		const watched =
			!first && previous !== null && changed !== undefined
				? { fingerprints: previous.fingerprints, changed }
				: undefined;
		// From scratch, the search index is fed each note as it is read: its build reads no note again.
		const fed = first && search !== undefined ? new FedNotes(search) : undefined;
		// Read piecemeal and lean: the server holds what its calls read, not the whole metadata heap (~120 MB at 50k).
		const read = await openCachedVault(vaultPath, {
			...bounds,
			store,
			tool,
			readPiecemeal: true,
			lean: true,
			save: first,
			watched,
			// The start keeps no note's text, and from scratch no note at all: each note is encoded into
			// the snapshot as it is parsed, the snapshot is saved, and the vault re-opened through it
			// (stream-build.ts) — the indexes are then built from the saved fields and the note texts
			// on disk, one note at a time. Nothing is parsed again and nothing is stat'ed: the
			// watcher, started before the read, reports every write since.
			keepTexts: !first,
			streamSave: first,
			feed: fed,
			// Only the start reports how far it read: a refresh reads a few notes.
			...(first && progress ? { progress } : {}),
		});
		const { report } = read;
		if (report.state === 'built') recordBuild(vaultPath, report.notes);
		if (report.saveError !== null) warn(`warning: the index snapshot could not be saved (${report.saveError})`);
		previous = read;
		const { source } = read;
		// The start loads the saved search and trigram indexes (and saves what it built); refreshes carry the running ones.
		const parts = first ? indexPartsOf(read, store, tool, false) : undefined;
		return {
			source,
			snapshot: report,
			parts,
			changed: read.changed,
			fed: report.state === 'built' ? fed : undefined,
		};
	};
}
