/**
 * Note paths as MCP resource URIs, and the confinement rule every path an agent sends obeys:
 * vault-relative only — no `..` segment, no absolute path, no drive letter, no backslash, no NUL.
 * (Symlinks that leave the vault never become notes: the vault walk skips them.)
 */

/** The resource template: one note by its vault-relative path (slashes kept, other characters percent-encoded). */
export const NOTE_URI_TEMPLATE = 'vault-query://note/{+path}';

/** The resource URI of a note path. */
export function noteUri(path: string): string {
	return `vault-query://note/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** Why `path` is not a vault-relative path, or null when it is. */
export function confinementError(path: string): string | null {
	if (path.includes('\0')) return 'contains a NUL character';
	if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.startsWith('~'))
		return 'is absolute; give a path relative to the vault';
	if (path.includes('\\')) return 'uses backslashes; vault paths use /';
	if (path.split('/').includes('..')) return 'leaves the vault (..)';
	return null;
}

/** The decoded, checked note path of a resource URI variable; throws an Error naming the path when refused. */
export function confinedNotePath(variable: string | string[] | undefined): string {
	const raw = Array.isArray(variable) ? variable.join('/') : (variable ?? '');
	let path: string;
	try {
		path = decodeURIComponent(raw);
	} catch {
		throw new Error(`path: "${raw}" is not a valid percent-encoded path`);
	}
	const why = confinementError(path);
	if (why !== null) throw new Error(`path: "${path}" ${why}`);
	return path;
}
