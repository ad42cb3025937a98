import { describe, expect, it } from 'vitest';
import { folderTreeRows, type FolderNode } from './format-folders.js';

function node(id: string, children: FolderNode[] = []): FolderNode {
  return { id, name: id.toUpperCase(), parentId: null, createdAt: '2030-01-01T00:00:00.000Z', children };
}

describe(folderTreeRows.name, () => {
  it('draws sub-folders on branches below their top-level folder', () => {
    const rows = folderTreeRows([node('a', [node('b', [node('c')]), node('d')]), node('e')]);
    expect(rows.map((row) => `${row.label} ${row.id}`)).toEqual(['A a', '├── B b', '│   └── C c', '└── D d', 'E e']);
  });

  it('has no rows for no folders', () => {
    expect(folderTreeRows([])).toEqual([]);
  });
});
