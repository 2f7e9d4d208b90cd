/** A size in bytes as people read it (the CLI's skip reasons, the plugin's settings tab). */

const KIB = 1024;
const MIB = 1024 * KIB;

/** `5 MB`, `7.2 MB`, `12.5 KB`, `300 bytes`: one decimal at most. */
export function formatSize(bytes: number): string {
	if (bytes >= MIB) return `${Number((bytes / MIB).toFixed(1))} MB`;
	if (bytes >= KIB) return `${Number((bytes / KIB).toFixed(1))} KB`;
	return `${bytes} bytes`;
}
