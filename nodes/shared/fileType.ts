export interface DetectedFile {
	extension: 'pdf' | 'png' | 'jpg';
	mimeType: string;
}

/** The API accepts PDF, PNG and JPG; recognise them by content, not by name. */
export function detectFileType(buffer: Buffer): DetectedFile | undefined {
	if (buffer.length >= 5 && buffer.subarray(0, 5).toString('latin1') === '%PDF-') {
		// A real PDF ends with %%EOF (within its last KB); a file that only starts like one is refused.
		const tail = buffer.subarray(Math.max(0, buffer.length - 1024)).toString('latin1');
		return /^%PDF-\d\.\d/.test(buffer.subarray(0, 8).toString('latin1')) && tail.includes('%%EOF')
			? { extension: 'pdf', mimeType: 'application/pdf' }
			: undefined;
	}
	if (
		buffer.length >= 8 &&
		buffer.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
	) {
		return { extension: 'png', mimeType: 'image/png' };
	}
	if (buffer.length >= 3 && buffer[0] === 0xff && buffer[1] === 0xd8 && buffer[2] === 0xff) {
		return { extension: 'jpg', mimeType: 'image/jpeg' };
	}
	return undefined;
}

/**
 * The size, first 16 bytes and a copy of the last KB of a file read in pieces: all detectFileType needs,
 * so a large file (a download, a stored upload) is recognised without being held whole.
 */
export class FileEnds {
	size = 0;
	head = Buffer.alloc(0);
	tail = Buffer.alloc(0);

	add(bytes: Buffer): void {
		if (this.head.length < 16) this.head = Buffer.concat([this.head, bytes.subarray(0, 16 - this.head.length)]);
		// A copy of the last KB only: a view would keep each whole piece alive.
		this.tail = Buffer.from(bytes.length >= 1024 ? bytes.subarray(bytes.length - 1024) : Buffer.concat([this.tail, bytes]).subarray(-1024));
		this.size += bytes.length;
	}

	/** The bytes to hand detectFileType: the head and the last KB. */
	get ends(): Buffer {
		return this.size <= this.head.length ? this.head : Buffer.concat([this.head, this.tail]);
	}
}
