// clock-ok-file: the Chromium bench's page paces its reads as the plugin's slices do; it asserts nothing.
/**
 * The Chromium bench's floor (`?load=floor`, `--floor`): what reading the vault alone costs the
 * page's main thread, with no plugin loaded — every note's `readBinary`, as many at once as the
 * plugin's note server asks for, each batch's bytes copied into one reused buffer, the thread handed
 * back after 8 ms as the plugin's slices do. Any indexer that reads the notes on the main thread
 * pays at least this; the first start's blocks beyond it are the plugin's own.
 */
import type { UiApp } from '../../ui/ui-app';

/** Notes read at once: the plugin's note server's batch (src/obsidian/note-server.ts). */
const FLOOR_BATCH = 32;
/** Milliseconds of reading between two hand-backs: the plugin's slice (src/obsidian/plugin-engine.ts). */
const FLOOR_SLICE_MS = 8;

/** Resolves in a task of its own (a MessageChannel message, as the plugin's turns; a timer would be clamped). */
function nextTurn(): Promise<void> {
	return new Promise((resolve) => {
		const channel = new MessageChannel();
		channel.port1.onmessage = () => {
			channel.port1.close();
			resolve();
		};
		channel.port2.postMessage(null);
	});
}

/** Reads every Markdown note of `app`'s vault (see the module comment); resolves with the bytes read. */
export async function readEveryNote(app: UiApp): Promise<number> {
	const files = app.vault.getMarkdownFiles();
	let buffer = new Uint8Array(1 << 20);
	let bytes = 0;
	let sliceStart = performance.now();
	for (let from = 0; from < files.length; from += FLOOR_BATCH) {
		const batch = files.slice(from, from + FLOOR_BATCH);
		const read = await Promise.all(batch.map(async (file) => new Uint8Array(await app.vault.readBinary(file))));
		const size = read.reduce((n, note) => n + note.length, 0);
		if (size > buffer.length) buffer = new Uint8Array(size);
		let at = 0;
		for (const note of read) {
			buffer.set(note, at);
			at += note.length;
		}
		bytes += size;
		if (performance.now() - sliceStart >= FLOOR_SLICE_MS) {
			await nextTurn();
			sliceStart = performance.now();
		}
	}
	return bytes;
}
