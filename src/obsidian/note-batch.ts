/**
 * A batch of notes as the main thread posts it to an index worker (note-server.ts): every note's
 * bytes end to end, then the rest of each note (its path, Obsidian's metadata, why it is skipped
 * or unreadable) as JSON in UTF-8, all in one buffer transferred whole — the message itself holds
 * a few numbers. Posted as cloned objects (~1.5 KB of metadata a note), each message's copy was
 * counted as the page's memory outside its heap until a full collection, and at 50k notes those
 * counts brought a collection of Obsidian's whole heap into the build; JSON's strings are young
 * garbage the page's scavenges sweep in a few milliseconds (BENCHMARKS, 2026-12-04 night).
 * JSON keeps what structured cloning would and it would not — a frontmatter's non-finite
 * number, date, big integer or array hole — by tagging the values in a batch that has any.
 */
import type { NoteBatch, PostedNote } from './worker-protocol';

/** A note as the JSON holds it: its bytes' length (-1: none) in place of the bytes. */
type NoteInfo = Omit<PostedNote, 'bytes'> & { length: number };

/** The key of a tagged value's one-key object: no property name Obsidian's YAML makes. */
const TAG = '\u0000vq';

/** Whether JSON would change `value` (a frontmatter's): a non-finite number, a date, a big integer, an array hole or undefined. */
function changedByJson(value: unknown): boolean {
	if (typeof value === 'number') return !Number.isFinite(value);
	if (typeof value === 'bigint' || value instanceof Date) return true;
	if (Array.isArray(value)) {
		for (let i = 0; i < value.length; i++)
			if (!(i in value) || value[i] === undefined || changedByJson(value[i])) return true;
		return false;
	}
	if (value !== null && typeof value === 'object') return Object.values(value).some(changedByJson);
	return false;
}

/** JSON.stringify's replacer for a tagged batch: the values JSON would change, as one-key objects. */
function tag(this: Record<string, unknown>, key: string, value: unknown): unknown {
	const raw = this[key];
	if (typeof raw === 'number' && !Number.isFinite(raw)) return { [TAG]: ['number', String(raw)] };
	if (typeof raw === 'bigint') return { [TAG]: ['bigint', String(raw)] };
	if (raw instanceof Date) return { [TAG]: ['date', raw.getTime()] };
	if (raw === undefined && Array.isArray(this)) return { [TAG]: ['undefined', 0] };
	return value;
}

/** JSON.parse's reviver for a tagged batch: each tagged value as it was. */
function untag(_key: string, value: unknown): unknown {
	if (value === null || typeof value !== 'object' || !(TAG in value)) return value;
	const [kind, text] = (value as Record<string, [string, string | number]>)[TAG]!;
	if (kind === 'number') return Number(text);
	if (kind === 'bigint') return BigInt(text);
	if (kind === 'date') return new Date(text);
	return undefined;
}

/**
 * `notes` (their `bytes` as read, each in a buffer of its own) packed into one buffer of at least
 * the size asked of `take` (a fresh one, or one a worker handed back).
 */
export function packNoteBatch(notes: readonly PostedNote[], take: (bytes: number) => ArrayBuffer): NoteBatch {
	const infos: NoteInfo[] = notes.map(({ bytes, ...rest }) => ({ ...rest, length: bytes?.length ?? -1 }));
	const tagged = notes.some((note) => changedByJson(note.metadata?.frontmatter));
	const json = tagged ? JSON.stringify(infos, tag) : JSON.stringify(infos);
	const infoAt = notes.reduce((n, note) => n + (note.bytes?.length ?? 0), 0);
	const buffer = take(infoAt + json.length * 3); // a UTF-16 unit is at most 3 bytes of UTF-8
	const whole = new Uint8Array(buffer);
	let at = 0;
	for (const note of notes) {
		if (note.bytes === null) continue;
		whole.set(note.bytes, at);
		at += note.bytes.length;
	}
	const { written } = new TextEncoder().encodeInto(json, whole.subarray(infoAt));
	return { buffer, infoAt, infoLength: written, tagged };
}

/** The notes of `batch`, each note's bytes a view into its buffer. */
export function unpackNoteBatch(batch: NoteBatch): PostedNote[] {
	const { buffer, infoAt, infoLength, tagged } = batch;
	const json = new TextDecoder().decode(new Uint8Array(buffer, infoAt, infoLength));
	const infos = (tagged ? JSON.parse(json, untag) : JSON.parse(json)) as NoteInfo[];
	let at = 0;
	return infos.map(({ length, ...rest }) => {
		if (length < 0) return { ...rest, bytes: null };
		const bytes = new Uint8Array(buffer, at, length);
		at += length;
		return { ...rest, bytes };
	});
}
