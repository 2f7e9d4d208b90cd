/**
 * The Chromium bench page's stand-in for Obsidian's reads from disk: a note's bytes from the bench's
 * server. By default the reads asked for in one turn (the plugin reads 32 notes at once) go in one
 * request, as their bytes and their sizes: a request a note cost the page's main thread ~1 ms each
 * (Chromium's fetch machinery), which a read from disk does not, and put most of the first start's
 * long tasks inside `fetch`. `?reads=each` (`--fetch-each`): one request a note, as first measured.
 */

const params = new URLSearchParams(location.search);
const LOAD = params.get('load') ?? 'first';
const EACH = params.get('reads') === 'each';

interface Waiting {
	path: string;
	resolve(bytes: ArrayBuffer): void;
	reject(error: Error): void;
}

let waiting: Waiting[] = [];

/** One request for every read asked for in the turn that just ended. */
async function flush(): Promise<void> {
	const batch = waiting;
	waiting = [];
	try {
		// The vault's disk, as the bench's server stands for it (requestUrl is Obsidian's, not the page's).
		const response = await window.fetch(`/vault/files?load=${LOAD}`, {
			method: 'POST',
			body: JSON.stringify(batch.map((w) => w.path)),
		});
		const sizes = JSON.parse(response.headers.get('x-sizes') ?? '[]') as number[];
		const bytes = await response.arrayBuffer();
		let at = 0;
		batch.forEach((w, i) => {
			const size = sizes[i] ?? -1;
			if (size < 0) w.reject(new Error(`ENOENT: ${w.path}`));
			else w.resolve(bytes.slice(at, (at += size)));
		});
	} catch (error) {
		for (const w of batch) w.reject(error instanceof Error ? error : new Error(String(error)));
	}
}

/** A file's bytes from the server (an ArrayBuffer of its own), as Obsidian reads them from disk. */
export async function fileBytes(path: string): Promise<ArrayBuffer> {
	if (EACH) {
		const url = `/vault/file/${path.split('/').map(encodeURIComponent).join('/')}?load=${LOAD}`;
		// The vault's disk, as the bench's server stands for it (requestUrl is Obsidian's, not the page's).
		const response = await window.fetch(url);
		if (!response.ok) throw new Error(`ENOENT: ${path}`);
		return response.arrayBuffer();
	}
	return new Promise((resolve, reject) => {
		if (waiting.length === 0) queueMicrotask(() => void flush());
		waiting.push({ path, resolve, reject });
	});
}
