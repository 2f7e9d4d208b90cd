// clock-ok-file: the Chromium bench's page paces its reads as the plugin's slices do; it asserts nothing.
/**
 * The Chromium bench's floor (`?load=floor`, `--floor`): what reading the vault alone costs the
 * page's main thread, with no plugin loaded — every note's `readBinary`, as many at once as the
 * plugin's note server asks for, each batch's bytes copied into one reused buffer, the thread handed
 * back after the plugin's slice, through a MessageChannel as its turns are. Any indexer that reads
 * the notes on the main thread pays at least this; the first start's blocks beyond it are the plugin's own.
 */
import { TimeSlice } from '../../../src/core/steps';
import { messageChannelPoster } from '../../../src/obsidian/next-task';
import { POST_BATCH } from '../../../src/obsidian/note-server';
import { PLUGIN_SLICE_MS } from '../../../src/obsidian/plugin-engine';
import type { UiApp } from '../../ui/ui-app';

/** Reads every Markdown note of `app`'s vault (see the module comment); resolves with the bytes read. */
export async function readEveryNote(app: UiApp): Promise<number> {
	const post = messageChannelPoster(MessageChannel);
	const slice = new TimeSlice(
		PLUGIN_SLICE_MS,
		() => new Promise((resolve) => post(resolve)),
		() => performance.now(),
	);
	const files = app.vault.getMarkdownFiles();
	let buffer = new Uint8Array(1 << 20);
	let bytes = 0;
	for (let from = 0; from < files.length; from += POST_BATCH) {
		const batch = files.slice(from, from + POST_BATCH);
		const read = await Promise.all(batch.map(async (file) => new Uint8Array(await app.vault.readBinary(file))));
		const size = read.reduce((n, note) => n + note.length, 0);
		if (size > buffer.length) buffer = new Uint8Array(size);
		let at = 0;
		for (const note of read) {
			buffer.set(note, at);
			at += note.length;
		}
		bytes += size;
		await slice.pauseIfUsed();
	}
	return bytes;
}
