import * as obsidian from 'obsidian';
import type { App, Component, Plugin } from 'obsidian';
import type { ContextPack } from '../core/pack/pack';
import { copyPack } from './copy-pack';
import { plural } from './dom';
import type { FacesHost } from './host';
import { packStatus } from './pack-box';

/**
 * The Bases view type "Context pack": inside Obsidian the app evaluates the base; this view takes
 * the rows it shows (their notes) and packs exactly those notes for a question, with a copy
 * button. The question defaults to the view's name ("Top rated"); the budget is the setting's.
 * Bases views exist since Obsidian 1.10: `BasesView` and `registerBasesView` are read at run time,
 * so the plugin still loads (without this view type) on an older app or with bases turned off.
 */

/** The view type id registered with `registerBasesView`. */
export const CONTEXT_PACK_BASES_VIEW = 'vault-query-context-pack';

/** What this view uses of Obsidian's `BasesView` (typed here because it may be missing at run time). */
interface BasesViewLike extends Component {
	app: App;
	config?: { name: string };
	data: { data: { file: { path: string } }[] };
}
type BasesViewClass = abstract new (controller: unknown) => BasesViewLike;
type RegisterBasesView = (
	viewId: string,
	registration: { name: string; icon: string; factory: (controller: unknown, containerEl: HTMLElement) => unknown },
) => boolean;

/** The Context pack view as tests and the plugin see it. */
export interface ContextPackView {
	readonly type: string;
	/** How many notes the rows hold. */
	readonly countEl: HTMLElement;
	/** The pack's question. */
	readonly questionEl: HTMLInputElement;
	/** The copy button. */
	readonly buttonEl: HTMLButtonElement;
	/** What the last copy did. */
	readonly statusEl: HTMLElement;
	/** New rows from Obsidian. */
	onDataUpdated(): void;
	/** Pack the rows' notes for the question and copy the Markdown. */
	copy(): Promise<ContextPack | null>;
}

/** The notes among a result's rows (attachments are rows of a base too, but have no text to quote). */
export function notesOf(paths: readonly string[]): string[] {
	return paths.filter((p) => p.toLowerCase().endsWith('.md'));
}

/** The view class over Obsidian's `BasesView` (a class made at registration, when that base class is known to exist). */
function contextPackViewClass(Base: BasesViewClass, host: FacesHost) {
	return class ContextPackBasesView extends Base implements ContextPackView {
		readonly type = CONTEXT_PACK_BASES_VIEW;
		readonly countEl: HTMLElement;
		readonly questionEl: HTMLInputElement;
		readonly buttonEl: HTMLButtonElement;
		readonly statusEl: HTMLElement;
		private paths: string[] = [];

		constructor(controller: unknown, containerEl: HTMLElement) {
			super(controller);
			const root = containerEl.createDiv('vault-query-bases-pack');
			this.countEl = root.createDiv({ cls: 'vault-query-bases-pack-count' });
			this.questionEl = root.createEl('input', {
				type: 'text',
				cls: 'vault-query-pack-input',
				attr: { placeholder: 'What should the pack answer?', 'aria-label': 'Question for the context pack' },
			});
			this.buttonEl = root.createEl('button', { cls: 'mod-cta', text: 'Copy context pack' });
			this.buttonEl.addEventListener('click', () => void this.copy());
			this.statusEl = root.createDiv({ cls: 'vault-query-pack-status', attr: { 'aria-live': 'polite' } });
		}

		onDataUpdated(): void {
			this.paths = notesOf(this.data.data.map((entry) => entry.file.path));
			this.countEl.setText(`${plural(this.paths.length, 'note')} in this view will be packed.`);
			if (this.questionEl.value.trim() === '') this.questionEl.value = this.config?.name ?? '';
		}

		async copy(): Promise<ContextPack | null> {
			const question = this.questionEl.value.trim();
			if (question === '') {
				this.statusEl.setText('Type a question for the pack.');
				return null;
			}
			if (this.paths.length === 0) {
				this.statusEl.setText('This view shows no notes to pack.');
				return null;
			}
			const paths = [...this.paths];
			this.buttonEl.disabled = true;
			try {
				const pack = await copyPack(
					{
						app: this.app,
						budget: () => host.budget(),
						pack: (request) => host.pack({ ...request, paths }),
						indexReady: () => host.searchIndexReady(),
					},
					question,
				);
				if (pack) this.statusEl.setText(packStatus(pack, question));
				return pack;
			} finally {
				this.buttonEl.disabled = false;
			}
		}
	};
}

/** Registers the Context pack view type when the app has Bases views (Obsidian 1.10+); returns whether it did. */
export function registerContextPackView(plugin: Plugin, host: FacesHost): boolean {
	const register = (plugin as unknown as { registerBasesView?: RegisterBasesView }).registerBasesView;
	const Base = (obsidian as unknown as { BasesView?: BasesViewClass }).BasesView;
	if (typeof register !== 'function' || typeof Base !== 'function') return false;
	const View = contextPackViewClass(Base, host);
	return register.call(plugin, CONTEXT_PACK_BASES_VIEW, {
		name: 'Context pack',
		icon: 'package',
		factory: (controller, containerEl) => new View(controller, containerEl),
	});
}
