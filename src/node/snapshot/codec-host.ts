/** The snapshot codec's host on Node: UTF-8 through Buffer, CRC-32 through zlib (native, memory speed). */
import { crc32 } from 'node:zlib';
import type { CodecHost } from '../../core/snapshot/port';

/**
 * A Buffer over the same memory as `bytes`, reused while the codec works on one array: a warm
 * call decodes thousands of small fields of one snapshot, and a fresh Buffer per field costs more
 * than decoding a short field.
 */
function bufferView(): (bytes: Uint8Array) => Buffer {
	let last: Uint8Array | null = null;
	let view: Buffer | null = null;
	return (bytes) => {
		if (bytes !== last || view === null) {
			last = bytes;
			view = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
		}
		return view;
	};
}

const decodeView = bufferView();
const encodeView = bufferView();

/** Buffer and zlib for the codec. */
export const nodeCodecHost: CodecHost = {
	encode: (text) => Buffer.from(text, 'utf8'),
	encodeInto: (text, target, at) => encodeView(target).write(text, at, 'utf8'),
	decode: (bytes, start, end) => decodeView(bytes).toString('utf8', start, end),
	checksum: (bytes) => crc32(bytes),
};
