import { describe, expect, it } from 'vitest';
import { uploadForm } from './upload.js';

describe(uploadForm.name, () => {
  const file = new File(['# hi'], 'notes.md', { type: 'text/markdown' });

  it('sends the file under its own name and only the fields that were given', () => {
    const sut = uploadForm({ file });
    expect([...sut.keys()]).toEqual(['file']);
    expect((sut.get('file') as File).name).toBe('notes.md');
  });

  it('renames the file, and carries the folder, the share as JSON and the conflict mode', async () => {
    const sut = uploadForm({
      file,
      name: 'other.md',
      folderId: 'f1',
      share: { oneTime: true, emailAllowlist: ['a@example.com'] },
      conflict: 'rename',
    });
    expect([...sut.keys()]).toEqual(['file', 'folderId', 'share', 'conflict']);
    const sent = sut.get('file') as File;
    expect(sent.name).toBe('other.md');
    expect(await sent.text()).toBe('# hi');
    expect(JSON.parse(sut.get('share') as string)).toEqual({ oneTime: true, emailAllowlist: ['a@example.com'] });
    expect(sut.get('conflict')).toBe('rename');
  });

  it('leaves out a null folder (the root)', () => {
    expect(uploadForm({ file, folderId: null }).has('folderId')).toBe(false);
  });
});
