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
	type PackedStamps,
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

/** What a build and a re-save both carry: the settings, the vault, the note list and every note's stat, packed in steps. */
async function packed(basics: RequestBasics): Promise<Omit<BuildRequest, 'type' | 'part'> & { stamps: PackedStamps }> {
	const { source, settings, stamps, run } = basics;
	return {
		settings,
		vault: {
			vaultPath: source.vaultPath,
			configDir: source.configDir,
			userIgnoreFilters: [...source.userIgnoreFilters],
		},
		notes: await run(packPathsSteps(source.listNotes())),
		stamps: await run(packStampsSteps(stamps)),
	};
}

/** A build of the index, its part to carry `partSettings` (IndexParts' settings string). */
export async function buildRequest(basics: RequestBasics, partSettings: string): Promise<BuildRequest> {
	const { stamps, ...common } = await packed(basics);
	return { type: 'build', ...common, part: { tool: basics.tool, settings: partSettings, stamps } };
}

/** A re-save of the part saved at `target` (worker-refresh.ts); `vaultSettings`: IndexParts' vault settings string. */
export async function refreshRequest(
	basics: RequestBasics,
	vaultSettings: string,
	target: SaveTarget,
): Promise<RefreshRequest> {
	const { stamps, ...common } = await packed(basics);
	return { type: 'refresh', ...common, part: { tool: basics.tool, vaultSettings, stamps }, target };
}
