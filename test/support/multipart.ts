/** Builds a multipart/form-data body as a browser would. */
export type FormPart =
  | { name: string; value: string }
  | { name: string; filename: string; contentType?: string; data: Buffer };

export function multipartBody(boundary: string, parts: FormPart[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `Content-Disposition: form-data; name="${part.name}"`;
    if ('value' in part) {
      chunks.push(Buffer.from(`--${boundary}\r\n${disposition}\r\n\r\n${part.value}\r\n`));
    } else {
      const type = part.contentType ? `\r\nContent-Type: ${part.contentType}` : '';
      chunks.push(
        Buffer.from(`--${boundary}\r\n${disposition}; filename="${part.filename}"${type}\r\n\r\n`),
        part.data,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** A body plus its Content-Type header, with a fresh boundary. */
export function form(parts: FormPart[]): { body: Buffer; contentType: string } {
  const boundary = `----test-boundary-${Math.random().toString(16).slice(2)}`;
  return { body: multipartBody(boundary, parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
