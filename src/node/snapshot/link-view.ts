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
import { nameKeyOf } from '../resolver';
import { walkOrder } from '../vault-walk';
import { LayeredMap } from './layered-map';
import { RecentMap } from './recent-map';

/** Where one note's link-map entries come from. */
export type LinkEntry = { saved: number } | { resolved: Record<string, number>; unresolved: Record<string, number> };

/**
 * What a `SnapshotLinks` made by `withChanges` reads through: the maps it was made from first
 * (`links`, whose inversion it reads), `edited` standing in for the notes whose links changed
 * since (path → destination file numbers; `[]` for a note gone or without links now), and the
 * file numbering extended with the files that appeared since (`numbered` numbers given so far).
 */
interface Derived {
	links: SnapshotLinks;
	edited: ReadonlyMap<string, readonly number[]>;
	numbering: ReadonlyMap<string, number>;
	numbered: number;
}

/** How many link-map entries a passing read (`passingResolvedLinks`) keeps, the most recently read. */
const PASSING_ENTRIES = 4096;

/** Both link maps of a cached vault (see the module comment). */
export class SnapshotLinks {
	private resolvedMap: LinkMap | null = null;
	/** `resolvedMap`'s entry for a read that does not keep it (see `passingResolvedLinks`). */
	private resolvedPeek: ((key: string) => Record<string, number> | undefined) | null = null;
	/** How many entries `resolvedMap` holds decoded. */
	private resolvedHeld: () => number = () => 0;
	private passingMap: LinkMap | null = null;
	private unresolvedMap: LinkMap | null = null;
	private inverted: { offsets: Uint32Array; sources: Uint32Array } | null = null;
	private fileIndex: ReadonlyMap<string, number> | null = null;
	/** Name key of an unresolved link → the notes (walk order) with one, made once per first maps. */
	private unresolvedIndex: Map<string, string[]> | null = null;

	/**
	 * `order`: the notes with entries, walk order; `entries`: each one's source; `files`: every
	 * vault file, in the file-index order of the snapshot's columns (the same list when a saved
	 * entry is used at all). `base`: what maps made by `withChanges` read through (see `Derived`),
	 * so an edit, a new note or a rename does not invert every link again.
	 */
	constructor(
		private readonly order: readonly string[],
		private readonly entries: ReadonlyMap<string, LinkEntry>,
		private readonly snapshot: DecodedSnapshot | null,
		private readonly files: readonly string[],
		private readonly base: Derived | null = null,
	) {}

	/** source → destination → count, each entry decoded when first read. */
	resolvedLinks(): LinkMap {
		this.resolvedMap ??= this.lazyMap(
			(entry) => ('saved' in entry ? this.snapshot!.resolvedOf(entry.saved) : entry.resolved),
			(peek, held) => {
				this.resolvedPeek = peek;
				this.resolvedHeld = held;
			},
		);
		return this.resolvedMap;
	}

	/** How many notes' `resolvedLinks` entries are held decoded (each is decoded when first read through `resolvedLinks()`). */
	get heldResolvedEntries(): number {
		return this.resolvedHeld();
	}

	/**
	 * `resolvedLinks()` for one pass over many notes (a full answer's backlinks): an entry read
	 * through it that is not yet decoded is decoded for that read and not kept; everything but a
	 * read by key is `resolvedLinks()`'s own.
	 */
	passingResolvedLinks(): LinkMap {
		const held = this.resolvedLinks();
		const decode = this.resolvedPeek!;
		// The last few entries read are kept: a full answer's backlinks read a linking note's entry once per note it links to.
		const recent = new RecentMap<string, Record<string, number> | undefined>(PASSING_ENTRIES);
		const peek = (key: string): Record<string, number> | undefined => {
			if (recent.has(key)) return recent.get(key);
			const entry = decode(key);
			recent.set(key, entry);
			return entry;
		};
		// Over a plain object, not over `held`: a Proxy checks what its `get` gives against its
		// target's own property, which would make `held` decode and keep the entry after all.
		this.passingMap ??= new Proxy(
			{},
			{
				get: (_, key) => (typeof key === 'string' ? peek(key) : (Reflect.get(held, key) as unknown)),
				has: (_, key) => Reflect.has(held, key),
				ownKeys: () => Reflect.ownKeys(held),
				getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(held, key),
			},
		);
		return this.passingMap;
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
	private lazyMap(
		decode: (entry: LinkEntry) => Record<string, number>,
		peeker?: (peek: (key: string) => Record<string, number> | undefined, held: () => number) => void,
	): LinkMap {
		const target: LinkMap = {};
		const gone = new Set<string>();
		const pending = (key: string | symbol): key is string =>
			typeof key === 'string' && !gone.has(key) && !Object.hasOwn(target, key) && this.entries.has(key);
		peeker?.(
			(key) => (pending(key) ? decode(this.entries.get(key)!) : target[key]),
			() => Object.keys(target).length,
		);
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
	 * These maps after some notes' links were resolved anew: `updates` is path → its entry, or
	 * null when it has none now (a note gone, renamed away, or no longer readable); `notes` is
	 * every note in walk order now; `addedFiles` the files that appeared since these maps (they
	 * are numbered after every file known so far). The entries of other notes carry over, and so
	 * does the inversion of the first maps of the chain.
	 */
	withChanges(
		updates: ReadonlyMap<string, LinkEntry | null>,
		notes: readonly string[],
		addedFiles: Iterable<string> = [],
	): SnapshotLinks {
		const root = this.base?.links ?? this;
		let numbering = this.fileIndexOf();
		let numbered = this.base?.numbered ?? this.files.length;
		const numbers = new Map<string, number>();
		for (const path of addedFiles) if (!numbering.has(path) && !numbers.has(path)) numbers.set(path, numbered++);
		if (numbers.size > 0) numbering = LayeredMap.over(numbering, numbers);
		const changes = new Map<string, LinkEntry>();
		const gone: string[] = [];
		for (const [path, entry] of updates) {
			if (entry === null) gone.push(path);
			else changes.set(path, entry);
		}
		const moved = [...updates].some(([path, entry]) => this.entries.has(path) !== (entry !== null));
		const entries = LayeredMap.over(this.entries, changes, gone);
		const edited = new Map(this.base?.edited ?? []);
		for (const [path, entry] of updates)
			edited.set(path, entry === null ? [] : destinationsOf(entry, numbering, this.snapshot));
		// A note that gained or lost its entry (created, deleted, became readable or not) changes the order.
		const order = moved ? notes.filter((path) => entries.has(path)) : this.order;
		return new SnapshotLinks(order, entries, this.snapshot, this.files, {
			links: root,
			edited,
			numbering,
			numbered,
		});
	}

	/** The notes whose `resolvedLinks` entry names `target`, in walk order (what inverting the map would give). */
	linkSourcesOf(target: string): string[] {
		const d = this.fileIndexOf().get(target);
		if (d === undefined) return [];
		const root = this.base?.links ?? this;
		const edited = this.base?.edited;
		const found: string[] = [];
		if (d < root.files.length) {
			const { offsets, sources } = root.invert();
			for (let k = offsets[d]!; k < offsets[d + 1]!; k++) {
				const path = root.order[sources[k]!]!;
				if (edited === undefined || !edited.has(path)) found.push(path);
			}
		}
		if (edited === undefined) return found;
		const more: string[] = [];
		for (const [path, dests] of edited) if (dests.includes(d)) more.push(path);
		return more.length === 0 ? found : mergeInWalkOrder(found, more.sort(walkOrder));
	}

	/**
	 * The notes with an unresolved link whose name key (`nameKeyOf`, what the resolver looks a
	 * link up by) is one of `names`: those whose links a file of such a name, appearing, could
	 * resolve. Unordered.
	 */
	unresolvedSourcesNamed(names: ReadonlySet<string>): Set<string> {
		const root = this.base?.links ?? this;
		const edited = this.base?.edited;
		const found = new Set<string>();
		const index = root.unresolvedByName();
		for (const name of names)
			for (const path of index.get(name) ?? []) if (edited === undefined || !edited.has(path)) found.add(path);
		for (const path of edited?.keys() ?? []) {
			const entry = this.entries.get(path);
			if (entry === undefined) continue;
			for (const key in this.unresolvedOf(entry))
				if (names.has(nameKeyOf(key))) {
					found.add(path);
					break;
				}
		}
		return found;
	}

	/** Builds now what a file created or gone reads first (the inversion and the unresolved names), so no refresh pays for it. */
	prepare(): void {
		const root = this.base?.links ?? this;
		root.invert();
		root.unresolvedByName();
	}

	/** One entry's unresolved links, decoded. */
	private unresolvedOf(entry: LinkEntry): Record<string, number> {
		return 'saved' in entry ? (this.snapshot!.unresolvedByNote().get(entry.saved) ?? {}) : entry.unresolved;
	}

	/** Name key → the notes with an unresolved link of that name, over these maps' own entries (made once). */
	private unresolvedByName(): Map<string, string[]> {
		if (this.unresolvedIndex) return this.unresolvedIndex;
		const index = new Map<string, string[]>();
		for (const path of this.order) {
			for (const key in this.unresolvedOf(this.entries.get(path)!)) {
				const name = nameKeyOf(key);
				const list = index.get(name);
				if (list === undefined) index.set(name, [path]);
				else if (list[list.length - 1] !== path) list.push(path);
			}
		}
		this.unresolvedIndex = index;
		return index;
	}

	/** Path → number in the file numbering (the snapshot's destination numbering, then files that appeared), made once per file list. */
	private fileIndexOf(): ReadonlyMap<string, number> {
		this.fileIndex ??= this.base?.numbering ?? new Map(this.files.map((f, i) => [f, i]));
		return this.fileIndex;
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
		visit((d) => offsets[d + 2]!++);
		for (let d = 2; d < offsets.length; d++) offsets[d]! += offsets[d - 1]!;
		const sources = new Uint32Array(offsets[offsets.length - 1]!);
		visit((d, position) => (sources[offsets[d + 1]!++] = position));
		this.inverted = { offsets: offsets.subarray(0, this.files.length + 1), sources };
		return this.inverted;
	}
}

/** The file numbers a fresh or saved entry links to. */
function destinationsOf(
	entry: LinkEntry,
	numbering: ReadonlyMap<string, number>,
	snapshot: DecodedSnapshot | null,
): number[] {
	if ('saved' in entry) {
		const [from, to] = snapshot!.resolvedSpan(entry.saved);
		const out: number[] = [];
		for (let p = from; p < to; p++) out.push(snapshot!.resolvedDest(p));
		return out;
	}
	return Object.keys(entry.resolved).flatMap((dest) => numbering.get(dest) ?? []);
}

/** Two lists each in walk order, merged into one. */
function mergeInWalkOrder(a: readonly string[], b: readonly string[]): string[] {
	const out: string[] = [];
	let i = 0;
	let j = 0;
	while (i < a.length && j < b.length) out.push(walkOrder(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!);
	while (i < a.length) out.push(a[i++]!);
	while (j < b.length) out.push(b[j++]!);
	return out;
}

/**
 * The notes whose links a file of one of these names, created or gone, can make resolve elsewhere
 * (`links`: the maps before; `filesNamedBefore`: the files of a name key then). A link is looked
 * up by its name key `m` among the files named `m` or `m.md`, so a file named `n` concerns links
 * named `n` or `n` less `.md`. Those links now resolve to files named `n`, `n.md` or `n` less
 * `.md`, or are unresolved with a key (the linkpath less one `.md`) named `n`, `n` less `.md` or
 * `n` less `.md.md`.
 */
export function notesToRelink(
	links: SnapshotLinks,
	filesNamedBefore: (name: string) => readonly string[],
	changedFiles: readonly string[],
): Set<string> {
	const less = (name: string): string => (name.endsWith('.md') ? name.slice(0, -3) : name);
	const targets = new Set<string>();
	const unresolved = new Set<string>();
	for (const path of changedFiles) {
		const name = nameKeyOf(path);
		for (const n of [name, `${name}.md`, less(name)]) targets.add(n);
		for (const n of [name, less(name), less(less(name))]) unresolved.add(n);
	}
	const relink = links.unresolvedSourcesNamed(unresolved);
	for (const name of targets)
		for (const file of filesNamedBefore(name)) for (const path of links.linkSourcesOf(file)) relink.add(path);
	return relink;
}

/** The link maps exactly as a snapshot saved them. */
function savedLinks(snapshot: DecodedSnapshot): SnapshotLinks {
	const order: string[] = [];
	const entries = new Map<string, LinkEntry>();
	snapshot.notePaths.forEach((path, i) => {
		if (!snapshot.indexed(i)) return;
		order.push(path);
		entries.set(path, { saved: i });
	});
	return new SnapshotLinks(order, entries, snapshot, snapshot.files);
}

/**
 * The notes (of the snapshot) whose saved links may resolve elsewhere now that files came or went
 * since it was saved, and the file numbering that keeps its saved destinations valid: its files,
 * then those that appeared. `filesNamedNow` looks names up among the files now.
 */
function relinkSince(
	snapshot: DecodedSnapshot,
	files: readonly string[],
	filesNamedNow: (name: string) => readonly string[],
): { relink: Set<string>; numbering: string[] } {
	const before = new Set(snapshot.files);
	const now = new Set(files);
	const added = files.filter((path) => !before.has(path));
	const removed = snapshot.files.filter((path) => !now.has(path));
	const addedSet = new Set(added);
	const removedByName = new Map<string, string[]>();
	for (const path of removed) {
		const name = nameKeyOf(path);
		removedByName.set(name, [...(removedByName.get(name) ?? []), path]);
	}
	const filesNamedBefore = (name: string): string[] => [
		...filesNamedNow(name).filter((path) => !addedSet.has(path)),
		...(removedByName.get(name) ?? []),
	];
	return {
		relink: notesToRelink(savedLinks(snapshot), filesNamedBefore, [...added, ...removed]),
		numbering: [...snapshot.files, ...added],
	};
}

/**
 * The link maps after a call's changes. Unchanged notes keep their saved entries, and only the
 * changed notes' links resolve anew — and, when files came or went since the snapshot, the links
 * of the notes whose links a created or gone file's name can move (`notesToRelink`; a note's links
 * depend on the file list, not on other notes' text). `metadataOf` decodes those kept notes. The
 * saved entries keep the snapshot's destination numbering (`numbering`: its files, then new ones).
 */
export function linkEntries(
	notes: readonly string[],
	files: readonly string[],
	sameFiles: boolean,
	keep: ReadonlyMap<string, number>,
	fresh: ReadonlyMap<string, CachedMetadata | null>,
	snapshot: DecodedSnapshot | null,
	build: (notes: [string, CachedMetadata][]) => LinkMaps,
	metadataOf: (path: string) => CachedMetadata | null,
	filesNamedNow: (name: string) => readonly string[],
): { order: string[]; entries: Map<string, LinkEntry>; numbering: readonly string[] } {
	const order: string[] = [];
	const entries = new Map<string, LinkEntry>();
	const since =
		snapshot !== null && !sameFiles
			? relinkSince(snapshot, files, filesNamedNow)
			: { relink: null, numbering: files };
	const parsed: [string, CachedMetadata][] = [];
	for (const path of notes) {
		const i = keep.get(path);
		if (snapshot !== null && i !== undefined && !since.relink?.has(path)) {
			if (snapshot.indexed(i)) entries.set(path, { saved: i });
			continue;
		}
		const meta = fresh.has(path) ? fresh.get(path)! : metadataOf(path);
		if (meta) parsed.push([path, meta]);
	}
	const built = parsed.length > 0 ? build(parsed) : { resolvedLinks: {}, unresolvedLinks: {} };
	for (const [path] of parsed)
		entries.set(path, { resolved: built.resolvedLinks[path] ?? {}, unresolved: built.unresolvedLinks[path] ?? {} });
	for (const path of notes) if (entries.has(path)) order.push(path);
	return { order, entries, numbering: since.numbering };
}
