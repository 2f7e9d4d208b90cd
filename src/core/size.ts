/** Quantities as people read them: sizes in bytes (the CLI's skip reasons, the plugin's settings tab) and counts of things. */

const KIB = 1024;
const MIB = 1024 * KIB;

/** `5 MB`, `7.2 MB`, `12.5 KB`, `300 bytes`: one decimal at most. */
export function formatSize(bytes: number): string {
	if (bytes >= MIB) return `${Number((bytes / MIB).toFixed(1))} MB`;
	if (bytes >= KIB) return `${Number((bytes / KIB).toFixed(1))} KB`;
	return `${bytes} bytes`;
}

/** `1 row`, `3 rows` (`many` for a plural that is not `one` + s). */
export function countOf(count: number, one: string, many = `${one}s`): string {
	return `${count} ${count === 1 ? one : many}`;
}
