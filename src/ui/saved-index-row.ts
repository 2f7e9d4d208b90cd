import type { Setting } from 'obsidian';
import { formatSize } from '../core/size';
import type { SavedIndexSummary } from '../obsidian/idb-store';
import type { PluginEngine } from '../obsidian/plugin-engine';
import { busyButton } from './dom';

/** What the saved-index row reads and does (PluginEngine's saved index). */
export interface SavedIndexHost {
	/** What is saved now, or null (nothing saved, or saving is not possible here). */
	summary(): Promise<SavedIndexSummary | null>;
	/** Delete the saved index. */
	clear(): Promise<void>;
}

/** The row's host over the plugin's engine. */
export function savedIndexHost(engine: PluginEngine): SavedIndexHost {
	return { summary: () => engine.savedSummary(), clear: async () => void (await engine.clearSaved()) };
}

/** The row's description of what is saved. */
export function savedIndexText(summary: SavedIndexSummary | null): string {
	if (summary === null)
		return 'Nothing is saved yet: the ranked-search index is saved in this device’s browser storage after it is built, and restored at the next start.';
	const when = new Date(summary.savedAt).toLocaleString();
	return `${summary.notes.toLocaleString('en-US')} notes, ${formatSize(summary.bytes)}, saved ${when}. Kept in this device’s browser storage, never in the vault, and restored at the next start.`;
}

/** The row: what is saved (notes, size, when) and a button that deletes it. */
export function savedIndexRow(host: SavedIndexHost): {
	name: string;
	desc: string;
	render(setting: Setting): void;
} {
	return {
		name: 'Saved index',
		desc: 'The ranked-search index kept between starts.',
		render: (setting) => {
			setting.descEl.addClass('vault-query-saved-index');
			const show = (): void => void host.summary().then((s) => setting.setDesc(savedIndexText(s)));
			show();
			busyButton(
				setting,
				'Clear saved index',
				'Delete the saved ranked-search index; the next start builds it again',
				async () => {
					await host.clear();
					show();
				},
			);
		},
	};
}
