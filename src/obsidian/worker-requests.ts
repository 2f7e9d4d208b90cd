/**
 * The requests the plugin posts its index workers (worker-protocol.ts), made on the main thread in
 * steps: the note list and every note's stat are packed into typed arrays in slices (50k paths and
 * stats packed in one go held the main thread ~0.1 s).
 */
import type { NoteFingerprint } from '../core/snapshot/codec';
import type { StepRunner } from '../core/snapshot/index-parts';
import type { SearchSettings } from '../core/search/settings';
import type { ObsidianNoteSource } from './source';
import {
	packPathsSteps,
	packStampsSteps,
	type BuildRequest,
	type RefreshRequest,
	type SaveTarget,
} from './worker-protocol';

/** What every request carries: the vault's notes now and their stats, the index's settings and the part's build stamp. */
export interface RequestBasics {
	source: ObsidianNoteSource;
	settings: SearchSettings;
	stamps: ReadonlyMap<string, NoteFingerprint>;
	/** The saved part's build stamp (saved-index.ts, `savedIndexTool`). */
	tool: string;
	/** Runs the packing's steps (in the main thread's time slices). */
	run: StepRunner;
}

/** What the source tells core about the vault, for a worker: its name, config folder and Excluded files. */
function vaultInfo(source: ObsidianNoteSource): BuildRequest['vault'] {
	return {
		vaultPath: source.vaultPath,
		configDir: source.configDir,
		userIgnoreFilters: [...source.userIgnoreFilters],
	};
}

/** A build of the index, its part to carry `partSettings` (IndexParts' settings string). */
export async function buildRequest(basics: RequestBasics, partSettings: string): Promise<BuildRequest> {
	const { source, settings, stamps, tool, run } = basics;
	return {
		type: 'build',
		settings,
		vault: vaultInfo(source),
		notes: await run(packPathsSteps(source.listNotes())),
		part: { tool, settings: partSettings, stamps: await run(packStampsSteps(stamps)) },
	};
}

/** A re-save of the part saved at `target` (worker-refresh.ts); `vaultSettings`: IndexParts' vault settings string. */
export async function refreshRequest(
	basics: RequestBasics,
	vaultSettings: string,
	target: SaveTarget,
): Promise<RefreshRequest> {
	const { source, settings, stamps, tool, run } = basics;
	return {
		type: 'refresh',
		settings,
		vault: vaultInfo(source),
		notes: await run(packPathsSteps(source.listNotes())),
		part: { tool, vaultSettings, stamps: await run(packStampsSteps(stamps)) },
		target,
	};
}
