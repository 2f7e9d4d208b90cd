/** The snapshot codec's host on Node: UTF-8 through Buffer, CRC-32 through zlib (native, memory speed). */
import { crc32 } from 'node:zlib';
import type { CodecHost } from '../../core/snapshot/port';

/** Buffer and zlib for the codec. */
export const nodeCodecHost: CodecHost = {
	encode: (text) => Buffer.from(text, 'utf8'),
	decode: (bytes, start, end) => Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8'),
	checksum: (bytes) => crc32(bytes),
};
