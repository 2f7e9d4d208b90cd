/**
 * A bound on the garbage a long piece of work leaves: it collects once the memory in use has grown
 * by an allowance past the least seen since the last collection (the trigram build, the writer of a
 * streamed answer). V8's own heuristics otherwise let the old generation grow to about the live
 * heap again before a full collection.
 */
import { getHeapStatistics } from 'node:v8';
import { fullCollection } from '../node/full-collection';

/** Bytes of garbage a build may leave before it collects: V8 otherwise lets it pile up to about the live heap again. */
export const GARBAGE_ALLOWANCE = 64 << 20; // why: at 96 MB the server peaked at ~720 MB mid-build at 50k notes, over its 700 MB target.

/** How a build looks at memory and collects (the process's own by default: a collection only where `globalThis.gc` is defined, see collect.ts). */
export interface GarbageHost {
	/** Bytes in use: the JavaScript heap and the buffers outside it. */
	used: () => number;
	/** A full collection, or undefined when the process cannot ask for one. */
	collect: (() => void) | undefined;
}

/** The process's own host. */
function processHost(): GarbageHost {
	return {
		// why: `process.memoryUsage()` reads the RSS from the system too, twice the cost (~40 µs at a
		// 300 MB heap), and a full --json answer looks once per 64 KB chunk (~4,500 times at 50k notes).
		used: () => {
			const { used_heap_size, external_memory } = getHeapStatistics();
			return used_heap_size + external_memory;
		},
		collect: fullCollection(),
	};
}

/**
 * Collects once the memory in use has grown by `allowance` since the last collection. The trigram
 * build's garbage (each segment's lists, each note's text and folded copy, the search part's
 * encoded pieces once saved) went uncollected until V8's own heuristics, which at 50k notes let
 * the heap grow from ~250 MB to ~720 MB and the process past 1.2 GB before its full collection.
 */
export class GarbageBound {
	/** Collections made so far. */
	collections = 0;
	private floor: number;

	/** A bound over `host`, starting from what is in use now. */
	constructor(
		private readonly host: GarbageHost = processHost(),
		private readonly allowance = GARBAGE_ALLOWANCE,
	) {
		this.floor = host.used();
	}

	/**
	 * Collects when the memory in use has grown by the allowance over the least seen since the last
	 * collection (V8's own collections lower it: a floor taken while the search part's encoded
	 * bytes were still garbage let the build grow ~300 MB before this bound stepped in).
	 */
	check(): void {
		const { collect } = this.host;
		if (collect === undefined) return;
		const used = this.host.used();
		if (used < this.floor + this.allowance) {
			this.floor = Math.min(this.floor, used);
			return;
		}
		this.collectNow();
	}

	/** A collection now, when the process can ask for one (the build's start: what came before it is garbage by then). */
	collectNow(): void {
		const { collect } = this.host;
		if (collect === undefined) return;
		collect();
		this.collections++;
		this.floor = this.host.used();
	}
}
