/** SHA-256 digests for cache names and the build stamp, through `node:crypto` loaded on first use. */
import { createRequire } from 'node:module';

type Crypto = typeof import('node:crypto');

let crypto: Crypto | null = null;

/** The hex SHA-256 of `data` (a string as its UTF-8 bytes). */
export function sha256Hex(data: string | Uint8Array): string {
	// why: loaded on first use, not at import: the CLI's entry imports this module before it knows what it needs.
	crypto ??= createRequire(import.meta.url)('node:crypto') as Crypto;
	return crypto.createHash('sha256').update(data).digest('hex');
}
