import { extname } from 'node:path';

/**
 * One path segment safe inside a zip on every system: no separators, no control characters, no
 * `.` or `..`, none of the characters Windows refuses, and not empty. The full-width and
 * look-alike slashes (U+FF0F, U+FF3C, U+2215, U+29F5) go too: some unzip tools and file systems
 * fold them into `/` or `\`, which would let a name climb out of its folder.
 */
export function safeSegment(name: string): string {
  const cleaned = name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|\uff0f\uff3c\u2215\u29f5]/g, '_').trim();
  if (cleaned === '' || /^\.+$/.test(cleaned)) return `_${cleaned}`;
  return cleaned;
}

/** Folder paths from the tree: each folder's segments from the top, cycles and missing parents cut off. */
export function folderPaths(folders: { id: string; parentId: string | null; name: string }[]): Map<string, string[]> {
  const byId = new Map(folders.map((folder) => [folder.id, folder]));
  const paths = new Map<string, string[]>();
  for (const folder of folders) {
    const segments: string[] = [];
    const seen = new Set<string>();
    for (
      let current = byId.get(folder.id);
      current && !seen.has(current.id);
      current = current.parentId ? byId.get(current.parentId) : undefined
    ) {
      seen.add(current.id);
      segments.unshift(safeSegment(current.name));
    }
    paths.set(folder.id, segments);
  }
  return paths;
}

/** Hands out each path once: a second `a.md` in the same place becomes `a (2).md`. */
export class UniquePaths {
  private readonly taken = new Set<string>();

  claim(path: string): string {
    let candidate = path;
    const extension = extname(path);
    const stem = extension ? path.slice(0, -extension.length) : path;
    for (let n = 2; this.taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${extension}`;
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}
