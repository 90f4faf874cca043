// The checksum of the model files the tool writes (LUCID-GAN's .lgan, the built-in classifier's
// model.json): "fnv1a32:<8 hex>", FNV-1a (32 bit) over JSON text of the file's content. It detects a
// file changed or damaged after it was written (a flipped digit that is still valid JSON), not
// tampering: anyone can recompute it. Core code: no Node imports.

/** 32-bit FNV-1a over the UTF-16 code units of `text`, as 8 hex digits. Detects corruption, not tampering. */
export function fnv1a32(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h = Math.imul(h ^ (c & 0xff), 0x01000193);
    h = Math.imul(h ^ (c >>> 8), 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The value of a file's "checksum" field for content serialised as `text`. */
export function checksumOf(text: string): string {
  return `fnv1a32:${fnv1a32(text)}`;
}

/**
 * The checksum of an object's fields other than "checksum", in their order: what a file that keeps
 * its checksum beside its content (model.json) is checked against. Reading the file back gives the
 * same text (JSON.stringify of parsed JSON is stable), however the file is indented.
 */
export function contentChecksum(obj: Readonly<Record<string, unknown>>): string {
  const { checksum: _, ...content } = obj;
  return checksumOf(JSON.stringify(content));
}

/** 'missing' when the file has no checksum field, 'mismatch' when it is not `expected`. */
export function verifyChecksum(stored: unknown, expected: string): 'ok' | 'missing' | 'mismatch' {
  if (stored === undefined) return 'missing';
  return stored === expected ? 'ok' : 'mismatch';
}
