/**
 * The index's vocabulary: term ⇄ id, ids in order of first sight, plus the sorted order that
 * prefix lookups walk. Built in memory, or restored from a saved part whose sorted terms are in
 * blocks read when a lookup lands in them — a warm search looks up a handful of its 210k terms
 * and never decodes the rest (the whole list is decoded only for typo correction or a save).
 */
import { drain } from '../steps';
import { ShardedMap } from './sharded-map';

/** Terms listed or mapped between two pauses of `allSteps`. */
const ALL_STEP_TERMS = 8192; // why: a few ms of a main thread; the whole saved dictionary at 50k notes held one ~0.35 s.

/** The saved dictionary (search-part.ts): ids 0…count-1, sorted in blocks (saved ids are in string order). */
export interface SavedTerms {
	/** Terms saved. */
	readonly count: number;
	/** Terms per block (the last may hold fewer): block `k`'s `i`-th term has id `k * blockTerms + i`. */
	readonly blockTerms: number;
	/** The first term of each block, in sorted order. */
	readonly firsts: readonly string[];
	/** Block `k`: its terms in sorted order (their ids follow from their place, see `blockTerms`). */
	block(k: number): readonly string[];
}

/** New terms tolerated outside the sorted order before it is re-sorted. */
const UNSORTED_TERMS_MAX = 20_000; // why: a linear startsWith scan of 20k strings is ~0.1 ms.
/** Terms examined per prefix lookup. */
export const PREFIX_SCAN_MAX = 500; // why: a prefix with more completions is too short to be worth expanding.

/**
 * A lookup needed one more saved block than `decodeAtMost` allowed: nothing changed but the blocks
 * decoded so far (kept) and ids given to new terms (kept too), so the work can run again later.
 */
export class BlocksNotDecoded extends Error {
	constructor() {
		super('dictionary: more saved blocks to decode than allowed now');
		this.name = 'BlocksNotDecoded';
	}
}

/** JavaScript's string order (UTF-16 code units), the one every sorted view of the vocabulary uses. */
export function compareTerms(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

/** The first place in the sorted `terms` whose term is not before `term` (`terms.length` when none). */
function lowerBound(terms: readonly string[], term: string): number {
	let lo = 0;
	let hi = terms.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (terms[mid]! < term) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/** The vocabulary of one index (see the module comment). */
export class TermDictionary {
	/** Terms added in memory, and saved terms once looked up. */
	private ids = new ShardedMap<number>();
	/** Saved terms found absent, so a repeated lookup costs no block. */
	private readonly absent = new Set<string>();
	/** Id → term; null while the saved terms are not decoded. */
	private list: string[] | null;
	/** Terms added after restoring (ids from `saved.count`), while `list` is null. */
	private readonly added: string[] = [];
	/** Ids in sorted order over the first `sorted.length` ids (in-memory mode), built on the first prefix lookup. */
	private sorted: Uint32Array | null = null;
	private readonly blocks = new Map<number, readonly string[]>();
	/** Saved blocks lookups may still decode before one throws BlocksNotDecoded (see `decodeAtMost`). */
	private decodable = Infinity;

	/** An empty dictionary, or one over saved terms. */
	constructor(private saved: SavedTerms | null = null) {
		this.list = saved === null ? [] : null;
	}

	/** Number of terms (ids 0…size-1). */
	get size(): number {
		return this.list !== null ? this.list.length : this.saved!.count + this.added.length;
	}

	/** The id of `term`, or undefined. */
	id(term: string): number | undefined {
		const known = this.ids.get(term);
		if (known !== undefined || this.list !== null || this.absent.has(term)) return known;
		const found = this.findSaved(term);
		if (found === undefined) this.absent.add(term);
		else this.ids.set(term, found);
		return found;
	}

	/** The id of `term`, given a new one when unseen. */
	add(term: string): number {
		const known = this.id(term);
		if (known !== undefined) return known;
		const id = this.size;
		this.ids.set(term, id);
		this.absent.delete(term);
		if (this.list !== null) this.list.push(term);
		else this.added.push(term);
		return id;
	}

	/** The term of id `id`. */
	term(id: number): string {
		if (this.list === null && id >= this.saved!.count) return this.added[id - this.saved!.count]!;
		return this.all()[id]!;
	}

	/** Every term by id (decodes the saved ones once). */
	all(): readonly string[] {
		return drain(this.allSteps());
	}

	/**
	 * Every term by id for one read (a save's), in steps of {@link ALL_STEP_TERMS} terms: a restored
	 * dictionary's saved blocks are decoded into a list of the caller's and the dictionary stays as
	 * it is — `allSteps` also builds the id map and keeps both for good (~15 MB of young objects at
	 * 50k notes, which the browser's collections then copied, 30–60 ms each on the main thread).
	 */
	*listSteps(): Generator<void, readonly string[], void> {
		if (this.list !== null) return this.list;
		const list = yield* this.savedTermsSteps(this.saved!);
		for (const term of this.added) list.push(term);
		return list;
	}

	/** The saved terms by id, decoded a block at a time (a block decoded already is taken as it is), pausing every {@link ALL_STEP_TERMS}. */
	private *savedTermsSteps(saved: SavedTerms): Generator<void, string[], void> {
		const list: string[] = [];
		let work = 0;
		for (let k = 0; k < saved.firsts.length; k++) {
			for (const term of this.blocks.get(k) ?? saved.block(k)) list.push(term);
			if ((work += saved.blockTerms) >= ALL_STEP_TERMS) {
				work = 0;
				yield;
			}
		}
		return list;
	}

	/**
	 * `all` in steps of {@link ALL_STEP_TERMS} terms: the saved blocks are listed and the id map
	 * built aside, then put in place at once, so a lookup during a pause sees the dictionary whole.
	 */
	*allSteps(): Generator<void, readonly string[], void> {
		if (this.list !== null) return this.list;
		const saved = this.saved!;
		const list = yield* this.savedTermsSteps(saved);
		let work = 0;
		const ids = new ShardedMap<number>();
		for (let id = 0; id < list.length; id++) {
			ids.set(list[id]!, id);
			if (++work >= ALL_STEP_TERMS) {
				work = 0;
				yield;
			}
		}
		if (this.list !== null) return this.list; // another caller finished first during a pause
		// Terms added during the pauses are taken now, after the last one.
		for (const term of this.added) ids.set(term, list.push(term) - 1);
		// Saved ids are in string order: that is the sorted view, newer terms merged in per lookup.
		const sorted = new Uint32Array(saved.count);
		for (let i = 0; i < sorted.length; i++) sorted[i] = i;
		this.blocks.clear();
		this.absent.clear();
		this.list = list;
		this.ids = ids;
		this.sorted = sorted;
		this.saved = null;
		return list;
	}

	/**
	 * Let lookups decode at most `blocks` more saved blocks (Infinity: any number, the default); a
	 * lookup that needs one more throws BlocksNotDecoded. A restored index decodes a block the first
	 * time a lookup lands in it, and a long note's first count lands in hundreds (~30 µs each at 50k
	 * notes): a host's main thread bounds one step of a note's upsert so (engine/apply.ts).
	 */
	decodeAtMost(blocks: number): void {
		this.decodable = blocks;
	}

	private block(k: number): readonly string[] {
		let block = this.blocks.get(k);
		if (block === undefined) {
			if (this.decodable <= 0) throw new BlocksNotDecoded();
			this.decodable--;
			block = this.saved!.block(k);
			this.blocks.set(k, block);
		}
		return block;
	}

	/** The saved block a term at or after `term` would start in (the last whose first term is ≤ it). */
	private blockOf(term: string): number {
		const firsts = this.saved!.firsts;
		let lo = 0;
		let hi = firsts.length;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			if (firsts[mid]! <= term) lo = mid + 1;
			else hi = mid;
		}
		return Math.max(0, lo - 1);
	}

	private findSaved(term: string): number | undefined {
		const saved = this.saved!;
		if (saved.firsts.length === 0) return undefined;
		const k = this.blockOf(term);
		const block = this.block(k);
		const i = lowerBound(block, term);
		return block[i] === term ? k * saved.blockTerms + i : undefined;
	}

	/**
	 * Ids of the first PREFIX_SCAN_MAX terms in sorted order that start with `prefix` (the prefix
	 * itself excluded): what a sort of every term gives, whatever was added since the sorted view
	 * was made (an edited index completes a prefix as a fresh build does). In memory the sorted
	 * view is built on the first lookup and remade when more than UNSORTED_TERMS_MAX terms came since.
	 */
	withPrefix(prefix: string): number[] {
		const found: [string, number][] = [];
		const wanted = (term: string): boolean => term !== prefix && term.startsWith(prefix);
		let tailFrom: number;
		if (this.list === null && this.added.length <= UNSORTED_TERMS_MAX) {
			const saved = this.saved!;
			tailFrom = saved.count;
			scan: for (let k = this.blockOf(prefix); k < saved.firsts.length; k++) {
				const block = this.block(k);
				for (let i = lowerBound(block, prefix); i < block.length; i++) {
					const term = block[i]!;
					if (!term.startsWith(prefix) || found.length >= PREFIX_SCAN_MAX) break scan;
					if (term !== prefix) found.push([term, k * saved.blockTerms + i]);
				}
			}
		} else {
			const all = this.all();
			if (this.sorted === null || all.length - this.sorted.length > UNSORTED_TERMS_MAX) {
				const ids = new Uint32Array(all.length);
				for (let i = 0; i < ids.length; i++) ids[i] = i;
				ids.sort((a, b) => compareTerms(all[a]!, all[b]!));
				this.sorted = ids;
			}
			const sorted = this.sorted;
			tailFrom = sorted.length;
			let lo = 0;
			let hi = sorted.length;
			while (lo < hi) {
				const mid = (lo + hi) >>> 1;
				if (all[sorted[mid]!]! < prefix) lo = mid + 1;
				else hi = mid;
			}
			for (let i = lo; i < sorted.length && found.length < PREFIX_SCAN_MAX; i++) {
				const t = all[sorted[i]!]!;
				if (!t.startsWith(prefix)) break;
				if (t !== prefix) found.push([t, sorted[i]!]);
			}
		}
		const before = found.length;
		for (let id = tailFrom; id < this.size; id++) {
			const term = this.term(id);
			if (wanted(term)) found.push([term, id]);
		}
		if (found.length > before) found.sort((a, b) => compareTerms(a[0], b[0]));
		return found.slice(0, PREFIX_SCAN_MAX).map(([, id]) => id);
	}
}
