/**
 * The Chromium bench page's stand-in for Obsidian's reads from disk: a note's bytes from the bench's
 * server. By default the reads asked for in one turn (the plugin reads 32 notes at once) go in one
 * request, made in a worker (READER_CODE), which cuts the reply into a buffer a note and transfers
 * them: one buffer a note reaches the page, as Obsidian's `readBinary` makes one (cut on the page,
 * the batch's buffer and a copy a note were twice the memory a read leaves to the page's
 * collector). A request a note cost the page's main thread ~1 ms each (Chromium's fetch
 * machinery), which a read from disk does not, and put most of the first start's long tasks inside
 * `fetch`. `?reads=each` (`--fetch-each`): one request a note from the page, as first measured.
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

/**
 * The reads' requests are made in a worker of their own, as Obsidian's reads run off its main
 * thread (a `fetch` call on the page cost its main thread up to ~0.1 s at a time on a loaded
 * machine, inside the plugin's turns); the page gets each batch's bytes as one moved buffer.
 */
const READER_CODE = `onmessage = async ({ data }) => {
	try {
		const response = await fetch(data.url, { method: 'POST', body: data.body });
		const whole = new Uint8Array(await response.arrayBuffer());
		const sizes = JSON.parse(response.headers.get('x-sizes') ?? '[]');
		let at = 0;
		const files = sizes.map((size) => (size < 0 ? null : whole.slice(at, (at += size)).buffer));
		postMessage({ id: data.id, files }, files.filter((file) => file !== null));
	} catch (error) {
		postMessage({ id: data.id, error: String(error) });
	}
};`;

interface ReaderReply {
	id: number;
	/** Per note asked for, its bytes in a buffer of its own (null: no such file). */
	files?: (ArrayBuffer | null)[];
	error?: string;
}

let reader: Worker | null = null;
const replies = new Map<number, (reply: ReaderReply) => void>();
let nextId = 0;

/** A batch's bytes and sizes, fetched by the reads' worker. */
function fetchBatch(paths: string[]): Promise<ReaderReply> {
	if (reader === null) {
		reader = new Worker(URL.createObjectURL(new Blob([READER_CODE], { type: 'text/javascript' })));
		reader.onmessage = ({ data }: MessageEvent<ReaderReply>) => {
			replies.get(data.id)?.(data);
			replies.delete(data.id);
		};
	}
	const id = nextId++;
	return new Promise((resolve) => {
		replies.set(id, resolve);
		// The vault's disk, as the bench's server stands for it (requestUrl is Obsidian's, not the page's).
		reader!.postMessage({ id, url: `${location.origin}/vault/files?load=${LOAD}`, body: JSON.stringify(paths) });
	});
}

/** One request for every read asked for in the turn that just ended. */
async function flush(): Promise<void> {
	const batch = waiting;
	waiting = [];
	const reply = await fetchBatch(batch.map((w) => w.path));
	if (reply.files === undefined) {
		for (const w of batch) w.reject(new Error(reply.error ?? 'the read failed'));
		return;
	}
	batch.forEach((w, i) => {
		const file = reply.files![i] ?? null;
		if (file === null) w.reject(new Error(`ENOENT: ${w.path}`));
		else w.resolve(ownedBytes(file));
	});
}

/**
 * The bytes moved (not copied) into a buffer only the page's script holds, as Obsidian's
 * `readBinary` returns one (a Node Buffer's, collected with it): the reader's message event keeps
 * the buffer it carried until a full collection, and 50k notes' bytes held so set off collections
 * of the page's whole heap that Obsidian would not have (2026-12-04 night, BENCHMARKS History).
 */
function ownedBytes(file: ArrayBuffer): ArrayBuffer {
	// ArrayBuffer#transfer is ES2024 (Chromium 114); the project's typings are ES2022.
	return (file as ArrayBuffer & { transfer(): ArrayBuffer }).transfer();
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
