// @vitest-environment happy-dom
/**
 * The plugin's inverted link map (obsidian/link-sources.ts), through the fake app's events: once
 * inverted it names exactly the sources a fresh inversion of `resolvedLinks` names; an edit keeps
 * it whole (its `resolve` event updates it in place), a created, renamed or deleted file makes it
 * partial until inverted again; and search answers (hits' backlinks included) equal those of an
 * engine that walks the link maps instead.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import type { LinkMap } from '../../src/core/metadata';
import type { NoteSource } from '../../src/core/port';
import type { ObsidianNoteSource } from '../../src/obsidian/source';
import { engineConfigOf, mergeSettings } from '../../src/ui/plugin-settings';
import { FakeApp } from './fake-app';
import { loadPlugin, settle } from './harness';
import { answers, changeOf, op, TEXTS, type Op } from './vault-changes';

/** Target → its sources, sorted, inverted afresh from the maps (what the index must equal). */
function inverted(links: LinkMap): Map<string, string[]> {
	const out = new Map<string, string[]>();
	for (const source of Object.keys(links))
		for (const target of Object.keys(links[source]!)) out.set(target, [...(out.get(target) ?? []), source]);
	for (const list of out.values()) list.sort();
	return out;
}

/** Every target the maps name (and one they do not), with the index's sources for it, sorted. */
function fromIndex(source: ObsidianNoteSource, links: LinkMap): Map<string, string[]> {
	const out = new Map<string, string[]>();
	for (const target of [...inverted(links).keys(), 'nowhere.md']) {
		const sources = [...source.linkSourcesOf(target)].sort();
		if (sources.length > 0) out.set(target, sources);
	}
	return out;
}

/** The same source with no inverse of its own: the engine walks the link maps. */
function walking(source: ObsidianNoteSource): NoteSource {
	const view = Object.create(source) as NoteSource;
	Object.assign(view, { linkSourcesOf: undefined, linkSourcesReady: undefined });
	return view;
}

/** Apply one change through the fake app's events; its kind, or null when it cannot apply. */
function apply(app: FakeApp, o: Op): string | null {
	const change = changeOf(app, o);
	if (change === null) return null;
	if (change.kind === 'create') app.create(change.path, change.text);
	else if (change.kind === 'write') app.modify(change.path, change.text);
	else if (change.kind === 'rename') app.rename(change.path, change.to);
	else app.delete(change.path);
	return change.kind;
}

describe('the plugin inverted link map (property)', () => {
	it('equals a fresh inversion after random changes, stays whole on edits, and answers as the walk does', async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
				const app = new FakeApp({ 'notes/alpha.md': TEXTS[0], 'beta.md': TEXTS[1], 'gamma.md': TEXTS[2] });
				const plugin = await loadPlugin(app);
				app.layoutReady();
				app.indexAll();
				const source = plugin.engine.source;
				// Read afresh each time: the fake, unlike Obsidian, makes new maps when it resolves again.
				const links = (): LinkMap => app.metadataCache.resolvedLinks;
				expect(source.linkSourcesReady()).toBe(false); // first ask: the inversion starts
				expect(await source.linkSourcesInverted()).toBe(true);
				for (const o of ops) {
					const kind = apply(app, o);
					if (kind === 'write') {
						// An edit reaches the index through its `resolve` event: whole, and right, at once.
						expect(source.linkSourcesReady()).toBe(true);
						expect(fromIndex(source, links())).toEqual(inverted(links()));
					} else if (kind !== null) {
						expect(source.linkSourcesReady()).toBe(false);
						expect(await source.linkSourcesInverted()).toBe(true);
						expect(fromIndex(source, links())).toEqual(inverted(links()));
					}
				}
				await plugin.engine.engine.settled();
				await settle();
				expect(await source.linkSourcesInverted()).toBe(true);
				const live = await answers(plugin.engine.engine);
				const walked = await answers(new VaultEngine(walking(source), engineConfigOf(mergeSettings({}))));
				expect(live).toEqual(walked);
				plugin.unload();
			}),
			{ numRuns: 30 },
		);
	}, 120_000);

	it("a search walks the link maps once, then reads its hits' backlinks from the inverted map", async () => {
		const app = new FakeApp({ 'notes/alpha.md': TEXTS[0], 'beta.md': TEXTS[1], 'gamma.md': TEXTS[2] });
		const plugin = await loadPlugin(app);
		app.layoutReady();
		app.indexAll();
		const source = plugin.engine.source;
		const asked = vi.spyOn(source, 'linkSourcesOf');
		const backlinksOfBeta = async (): Promise<unknown> =>
			(await plugin.engine.search('zebra', { limit: 20 })).results.find((h) => h.path === 'beta.md')?.backlinks;
		const walked = await backlinksOfBeta();
		expect(asked).not.toHaveBeenCalled(); // not inverted yet: the search walked the maps (and started the inversion)
		expect(await source.linkSourcesInverted()).toBe(true);
		expect(await backlinksOfBeta()).toEqual(walked);
		expect(asked).toHaveBeenCalledWith('beta.md');
		expect(walked).toEqual([{ path: 'notes/alpha.md', source: 'body' }]);
		plugin.unload();
	});
});
