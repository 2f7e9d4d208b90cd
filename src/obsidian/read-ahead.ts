/**
 * The notes a restart re-indexes, read a few ahead of the one being indexed (PluginEngine's
 * reconcile): one read at a time left the main thread idle while each note came from disk, and
 * the reads of 100 changed notes were most of a reconcile's second at 50k notes. A text read
 * ahead is used only while the note's stat is still the one it was read at; an edit meanwhile
 * makes the index read it again (and the edit's own change follows in the engine's queue).
 */
import type { ObsidianNoteSource } from './source';

/** Reads in flight ahead of the note being indexed. */
const READS_AHEAD = 8; // why: enough to cover a read's latency with a few notes' indexing, few texts held at once.

/** A read made ahead, and the stat the note had when it began. */
interface Ahead {
	stat: string | null;
	text: Promise<string | undefined>;
}

/** The texts of `paths`, read ahead of their use (see the module comment). */
export class ReadAhead {
	private readonly reads = new Map<number, Ahead>();
	private next = 0;

	/** Reads the notes of `paths` in order, {@link READS_AHEAD} ahead of the one asked. */
	constructor(
		private readonly source: ObsidianNoteSource,
		private readonly paths: readonly string[],
	) {}

	/**
	 * The text of `paths[i]` as read ahead, or undefined when it is to be read again (gone,
	 * unreadable, or its stat changed since the read began); starts the reads after it.
	 */
	async textOf(i: number): Promise<string | undefined> {
		while (this.next < Math.min(this.paths.length, i + 1 + READS_AHEAD)) this.start(this.next++);
		const ahead = this.reads.get(i);
		this.reads.delete(i);
		if (ahead === undefined) return undefined;
		const text = await ahead.text;
		return ahead.stat !== null && ahead.stat === this.statKey(this.paths[i]!) ? text : undefined;
	}

	private start(i: number): void {
		const path = this.paths[i]!;
		const stat = this.statKey(path);
		const text = stat === null ? Promise.resolve(undefined) : this.source.read(path).catch(() => undefined);
		this.reads.set(i, { stat, text });
	}

	/** The note's size and mtime, as a key; null when it is not a file. */
	private statKey(path: string): string | null {
		const stat = this.source.statOf(path);
		return stat === null ? null : `${stat.size}:${stat.mtime}`;
	}
}
