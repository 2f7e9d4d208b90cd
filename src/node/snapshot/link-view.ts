/**
 * The link maps of a vault opened through its snapshot, without building them: each note's entry
 * of `resolvedLinks` / `unresolvedLinks` is decoded from the saved columns when first read, and
 * "which notes link to X" is answered from one inversion of those columns (two passes over typed
 * arrays) instead of decoding every entry into objects — on a 6k-note vault that was ~100 ms of
 * a warm call that only needed the backlinks of twenty results.
 */
import type { CachedMetadata, LinkMap } from '../../core/metadata';
import type { LinkMaps } from '../link-maps';
import type { DecodedSnapshot } from '../../core/snapshot/codec';
import { LayeredMap } from './layered-map';

/** Where one note's link-map entries come from. */
export type LinkEntry = { saved: number } | { resolved: Record<string, number>; unresolved: Record<string, number> };

/** Both link maps of a cached vault (see the module comment). */
export class SnapshotLinks {
	private resolvedMap: LinkMap | null = null;
	private unresolvedMap: LinkMap | null = null;
	private inverted: { offsets: Uint32Array; sources: Uint32Array } | null = null;
	private fileIndex: Map<string, number> | null = null;
	/** Note path → position in `order`, shared along a chain of `withEntries`. */
	private positionIndex: Map<string, number> | null = null;

	/**
	 * `order`: the notes with entries, walk order; `entries`: each one's source; `files`: every
	 * vault file, in the file-index order of the snapshot's columns (the same list when a saved
	 * entry is used at all). `base`: maps these were made from by `withEntries` (same order and
	 * files), whose inversion this one reads, with `edited` (position → destination file indexes)
	 * standing in for the notes whose links changed since — so an edit does not invert every link again.
	 */
	constructor(
		private readonly order: readonly string[],
		private readonly entries: ReadonlyMap<string, LinkEntry>,
		private readonly snapshot: DecodedSnapshot | null,
		private readonly files: readonly string[],
		private readonly base: { links: SnapshotLinks; edited: ReadonlyMap<number, readonly number[]> } | null = null,
	) {}

	/** source → destination → count, each entry decoded when first read. */
	resolvedLinks(): LinkMap {
		this.resolvedMap ??= this.lazyMap((entry) =>
			'saved' in entry ? this.snapshot!.resolvedOf(entry.saved) : entry.resolved,
		);
		return this.resolvedMap;
	}

	/** source → unresolved linkpath → count, each entry decoded when first read. */
	unresolvedLinks(): LinkMap {
		this.unresolvedMap ??= this.lazyMap((entry) =>
			'saved' in entry ? (this.snapshot!.unresolvedByNote().get(entry.saved) ?? {}) : entry.unresolved,
		);
		return this.unresolvedMap;
	}

	/**
	 * An object that behaves like the built map — own enumerable keys in walk order, `for…in`,
	 * `Object.hasOwn`, spreading and JSON included — but decodes an entry only when it is read.
	 * A Proxy, because defining 6,000 accessors cost more than the few entries a query reads.
	 */
	private lazyMap(decode: (entry: LinkEntry) => Record<string, number>): LinkMap {
		const target: LinkMap = {};
		const gone = new Set<string>();
		const pending = (key: string | symbol): key is string =>
			typeof key === 'string' && !gone.has(key) && !Object.hasOwn(target, key) && this.entries.has(key);
		const settle = (key: string): void =>
			void Object.defineProperty(target, key, {
				value: decode(this.entries.get(key)!),
				writable: true,
				enumerable: true,
				configurable: true,
			});
		return new Proxy(target, {
			get: (t, key, receiver) => {
				if (pending(key)) settle(key);
				return Reflect.get(t, key, receiver) as unknown;
			},
			has: (t, key) => pending(key) || Reflect.has(t, key),
			getOwnPropertyDescriptor: (t, key) => {
				if (pending(key)) settle(key);
				return Reflect.getOwnPropertyDescriptor(t, key);
			},
			ownKeys: (t) => {
				const keys: (string | symbol)[] = this.order.filter((k) => !gone.has(k));
				for (const k of Reflect.ownKeys(t)) if (typeof k !== 'string' || !this.entries.has(k)) keys.push(k);
				return keys;
			},
			set: (t, key, value) => {
				if (typeof key === 'string') gone.delete(key);
				return Reflect.defineProperty(t, key, {
					value: value as unknown,
					writable: true,
					enumerable: true,
					configurable: true,
				});
			},
			defineProperty: (t, key, descriptor) => {
				if (typeof key === 'string') gone.delete(key);
				return Reflect.defineProperty(t, key, descriptor);
			},
			deleteProperty: (t, key) => {
				if (typeof key === 'string' && this.entries.has(key)) gone.add(key);
				return Reflect.deleteProperty(t, key);
			},
		});
	}

	/**
	 * These maps after some notes' links were resolved anew (`updates`: path → its entry, or null
	 * when it has none now), the file list unchanged; `notes` is every note in walk order. The
	 * entries of other notes carry over; the inversion is made again when first read.
	 */
	withEntries(updates: ReadonlyMap<string, LinkEntry | null>, notes: readonly string[]): SnapshotLinks {
		const moved = [...updates].some(([path, entry]) => this.entries.has(path) !== (entry !== null));
		if (!moved) {
			// Presence unchanged: a null update is a note that had no entry and still has none.
			const changes = new Map<string, LinkEntry>();
			for (const [path, entry] of updates) if (entry !== null) changes.set(path, entry);
			const edited = new Map(this.base?.edited ?? []);
			this.positionIndex ??= new Map(this.order.map((path, i) => [path, i]));
			for (const [path, entry] of changes) edited.set(this.positionIndex.get(path)!, this.destinationsOf(entry));
			const next = new SnapshotLinks(
				this.order,
				LayeredMap.over(this.entries, changes),
				this.snapshot,
				this.files,
				{ links: this.base?.links ?? this, edited },
			);
			next.positionIndex = this.positionIndex;
			return next;
		}
		// A note that gained or lost its entry (became readable, or not) changes the order: copied, rare.
		const entries = new Map(this.entries);
		for (const [path, entry] of updates) {
			if (entry === null) entries.delete(path);
			else entries.set(path, entry);
		}
		return new SnapshotLinks(
			notes.filter((path) => entries.has(path)),
			entries,
			this.snapshot,
			this.files,
		);
	}

	/** The notes whose `resolvedLinks` entry names `target`, in walk order (what inverting the map would give). */
	linkSourcesOf(target: string): string[] {
		const d = this.fileIndexOf().get(target);
		if (d === undefined) return [];
		const { offsets, sources } = (this.base?.links ?? this).invert();
		const edited = this.base?.edited;
		const positions: number[] = [];
		for (let k = offsets[d]; k < offsets[d + 1]; k++)
			if (edited === undefined || !edited.has(sources[k])) positions.push(sources[k]);
		if (edited !== undefined) {
			for (const [position, dests] of edited) if (dests.includes(d)) positions.push(position);
			positions.sort((a, b) => a - b);
		}
		return positions.map((position) => this.order[position]);
	}

	/** Path → position in the file list (the snapshot's destination numbering), built once per file list. */
	private fileIndexOf(): Map<string, number> {
		this.fileIndex ??= this.base?.links.fileIndexOf() ?? new Map(this.files.map((f, i) => [f, i]));
		return this.fileIndex;
	}

	/** The file indexes a fresh entry links to. */
	private destinationsOf(entry: LinkEntry): number[] {
		if ('saved' in entry) {
			const [from, to] = this.snapshot!.resolvedSpan(entry.saved);
			const out: number[] = [];
			for (let p = from; p < to; p++) out.push(this.snapshot!.resolvedDest(p));
			return out;
		}
		const index = this.fileIndexOf();
		return Object.keys(entry.resolved).flatMap((dest) => index.get(dest) ?? []);
	}

	/** Destination file index → note positions (in `order`) linking there: a counting sort over every link once. */
	private invert(): { offsets: Uint32Array; sources: Uint32Array } {
		if (this.inverted) return this.inverted;
		const offsets = new Uint32Array(this.files.length + 2);
		const fileIndex = this.fileIndexOf();
		const visit = (each: (dest: number, position: number) => void): void => {
			this.order.forEach((path, position) => {
				const entry = this.entries.get(path)!;
				if ('saved' in entry) {
					const [from, to] = this.snapshot!.resolvedSpan(entry.saved);
					for (let p = from; p < to; p++) each(this.snapshot!.resolvedDest(p), position);
				} else {
					for (const dest in entry.resolved) {
						const d = fileIndex.get(dest);
						if (d !== undefined) each(d, position);
					}
				}
			});
		};
		visit((d) => offsets[d + 2]++);
		for (let d = 2; d < offsets.length; d++) offsets[d] += offsets[d - 1];
		const sources = new Uint32Array(offsets[offsets.length - 1]);
		visit((d, position) => (sources[offsets[d + 1]++] = position));
		this.inverted = { offsets: offsets.subarray(0, this.files.length + 1), sources };
		return this.inverted;
	}
}

/**
 * The link maps after a call's changes. Unchanged notes keep their saved entries while the file
 * list is the same (a note's links depend on the file list, not on other notes' text), and only
 * the changed notes' links resolve anew; when files came or went any link may now resolve
 * elsewhere, so every note's links are resolved again (`metadataOf` decodes the kept ones).
 */
export function linkEntries(
	notes: readonly string[],
	sameFiles: boolean,
	keep: ReadonlyMap<string, number>,
	fresh: ReadonlyMap<string, CachedMetadata | null>,
	snapshot: DecodedSnapshot | null,
	build: (notes: [string, CachedMetadata][]) => LinkMaps,
	metadataOf: (path: string) => CachedMetadata | null,
): { order: string[]; entries: Map<string, LinkEntry> } {
	const order: string[] = [];
	const entries = new Map<string, LinkEntry>();
	const reuse = sameFiles && snapshot !== null;
	const parsed: [string, CachedMetadata][] = [];
	for (const path of notes) {
		const i = keep.get(path);
		if (reuse && i !== undefined) {
			if (snapshot.indexed(i)) entries.set(path, { saved: i });
			continue;
		}
		const meta = fresh.has(path) ? fresh.get(path)! : metadataOf(path);
		if (meta) parsed.push([path, meta]);
	}
	const built = parsed.length > 0 ? build(parsed) : { resolvedLinks: {}, unresolvedLinks: {} };
	for (const [path] of parsed)
		entries.set(path, { resolved: built.resolvedLinks[path], unresolved: built.unresolvedLinks[path] });
	for (const path of notes) if (entries.has(path)) order.push(path);
	return { order, entries };
}
