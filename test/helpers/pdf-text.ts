// The text of a PDF the service wrote with PDFKit's standard fonts, without another program: each
// content stream inflated, and the hex strings its TJ operators show decoded (PDFKit writes the standard
// fonts' text as hex of WinAnsi codes). Enough to check what a report says or does not say.
import zlib from 'node:zlib';

export function pdfText(pdf: Buffer): string {
  const lines: string[] = [];
  let at = 0;
  for (;;) {
    const start = pdf.indexOf('stream', at);
    if (start < 0) break;
    const bodyStart = pdf[start + 6] === 0x0d ? start + 8 : start + 7;
    const end = pdf.indexOf('endstream', bodyStart);
    if (end < 0) break;
    at = end + 9;
    let content: string;
    try {
      content = zlib.inflateSync(pdf.subarray(bodyStart, end)).toString('latin1');
    } catch {
      continue; // an image, or another stream that is not compressed text
    }
    for (const shown of content.matchAll(/\[([^\]]*)\]\s*TJ/g))
      lines.push(
        [...shown[1]!.matchAll(/<([0-9a-fA-F]*)>/g)]
          .map((hex) => Buffer.from(hex[1]!, 'hex').toString('latin1'))
          .join(''),
      );
  }
  return lines.join('\n');
}
