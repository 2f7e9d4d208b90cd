// @vitest-environment happy-dom
/**
 * The Bases view type "Context pack": the plugin registers it; given the rows Obsidian shows (a
 * base's entries), it counts their notes, offers the view's name as the question, and copies a
 * pack that quotes only those notes.
 */
import { describe, expect, it } from 'vitest';
import { CONTEXT_PACK_BASES_VIEW, type ContextPackView } from '../../src/ui/bases-view';
import { basesViews, Plugin, QueryController, TFile } from '../obsidian-stub/index';
import { captureClipboard } from './clipboard';
import { ready } from './harness';

const clipboard = captureClipboard();

async function viewOver(paths: string[], name = 'Top rated'): Promise<ContextPackView> {
	const r = await ready();
	const registered = basesViews.get(CONTEXT_PACK_BASES_VIEW);
	expect(registered?.registration.name).toBe('Context pack');
	const view = registered!.registration.factory(
		new QueryController(r.app),
		document.body.createDiv(),
	) as unknown as ContextPackView;
	const files = paths.map((p) => {
		const file = r.app.vault.getAbstractFileByPath(p);
		if (!(file instanceof TFile)) throw new Error(`not a file: ${p}`);
		return file;
	});
	Object.assign(view, { config: { name, get: () => undefined }, data: { data: files.map((file) => ({ file })) } });
	view.onDataUpdated();
	return view;
}

describe('the Context pack Bases view', () => {
	it('counts the notes of the rows and offers the view name as the question', async () => {
		const view = await viewOver([
			'skill-lab/dcf-valuation.md',
			'skill-lab/code-review-checklist.md',
			'attachments/pipeline.png',
		]);
		expect(view.countEl.textContent).toBe('2 notes in this view will be packed.');
		expect(view.questionEl.value).toBe('Top rated');
	});

	it('copies a pack that quotes only the notes of the rows', async () => {
		const view = await viewOver(['skill-lab/dcf-valuation.md']);
		view.questionEl.value = 'how do I value a business with discounted cash flows';
		const pack = await view.copy();
		expect(pack?.status).not.toBe('failed');
		expect(pack!.pack.map((s) => s.path)).toEqual(['skill-lab/dcf-valuation.md']);
		expect(clipboard).toEqual([pack!.markdown]);
		expect(view.statusEl.textContent).toMatch(
			/^"how do I value a business with discounted cash flows": \d+ of [\d,]+ tokens used · 1 source/,
		);
	});

	it('an Obsidian without Bases views loads the plugin without this view type', async () => {
		const proto = Plugin.prototype as unknown as { registerBasesView?: unknown };
		const saved = proto.registerBasesView;
		delete proto.registerBasesView;
		try {
			basesViews.clear();
			const r = await ready();
			expect(r.plugin.engine.source.listNotes().length).toBeGreaterThan(0);
			expect(basesViews.has(CONTEXT_PACK_BASES_VIEW)).toBe(false);
		} finally {
			proto.registerBasesView = saved;
		}
	});

	it('says so instead of packing when the view shows no notes', async () => {
		const view = await viewOver([]);
		view.questionEl.value = 'anything';
		expect(await view.copy()).toBeNull();
		expect(view.statusEl.textContent).toBe('This view shows no notes to pack.');
		expect(clipboard).toEqual([]);
	});
});
