import { inflateSync } from 'node:zlib';
import { PDFArray, type PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';

/** The strings a page's content stream draws (pdf-lib writes standard-font text as hex strings). */
function drawnText(content: Buffer): string[] {
  return [...content.toString('latin1').matchAll(/<([0-9A-Fa-f]*)> Tj/g)].map((match) =>
    Buffer.from(match[1]!, 'hex').toString('latin1'),
  );
}

/** A printed ticket's first page: the document, the strings it draws and its images. */
export async function parsed(bytes: Buffer) {
  const document = await PDFDocument.load(bytes);
  const [page] = document.getPages();
  const contents = page!.node.Contents();
  const streams =
    contents instanceof PDFArray
      ? Array.from({ length: contents.size() }, (_, n) => contents.lookup(n, PDFRawStream))
      : contents instanceof PDFRawStream
        ? [contents]
        : [];
  const text = streams.flatMap((stream) => drawnText(inflateSync(stream.contents)));
  const xObjects = page!.node.Resources()!.lookup(PDFName.of('XObject')) as PDFDict;
  const images = xObjects.entries().map(([, ref]) => document.context.lookup(ref) as PDFRawStream);
  return { document, text, images };
}
