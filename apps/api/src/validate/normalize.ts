/**
 * The contract's normalization: BOM removed, CRLF → LF, each tab → 4 spaces, trailing
 * whitespace trimmed on every line. Line breaks themselves are kept, so line numbers of the
 * normalized text match the original's.
 */
export function normalize(content: string): string {
  const withoutBom = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  return withoutBom
    .replace(/\r\n/g, '\n')
    .replace(/\t/g, '    ')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}
