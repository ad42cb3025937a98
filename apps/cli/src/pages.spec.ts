import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { MAX_PAGE_LIMIT, addOnePageOptions, addPageOptions, pageQueryOf, readPages, type PageOptions } from './pages.js';

function parse(args: string[]): PageOptions {
  let captured: PageOptions = {};
  const command = addPageOptions(new Command('ls'), 'files')
    .exitOverride()
    .configureOutput({ writeErr: () => undefined })
    .action((options: PageOptions) => {
      captured = options;
    });
  command.parse(args, { from: 'user' });
  return captured;
}

/** 450 rows served as the service would, recording every request. */
function server() {
  const rows = Array.from({ length: 450 }, (_, i) => i);
  const requests: Array<{ limit: number; cursor: string | undefined }> = [];
  const fetchPage = async (limit: number, cursor: string | undefined) => {
    requests.push({ limit, cursor });
    const start = cursor ? Number(cursor) : 0;
    const items = rows.slice(start, start + limit);
    return { items, nextCursor: start + limit < rows.length ? String(start + limit) : null };
  };
  return { requests, fetchPage };
}

describe('page options', () => {
  it('take a limit from 1 to the largest page and an opaque cursor', () => {
    expect(parse([])).toEqual({});
    expect(parse(['--limit', '1', '--cursor', 'abc'])).toEqual({ limit: 1, cursor: 'abc' });
    expect(parse(['--limit', String(MAX_PAGE_LIMIT)])).toEqual({ limit: MAX_PAGE_LIMIT });
    for (const bad of ['0', '201', '-3', '2.5', 'ten']) expect(() => parse(['--limit', bad])).toThrow(/1 to 200/);
  });
});

describe(readPages.name, () => {
  it('reads every page in the largest pages when no page is asked for', async () => {
    const { requests, fetchPage } = server();
    const read = await readPages({}, fetchPage);
    expect(read).toEqual({ items: Array.from({ length: 450 }, (_, i) => i) });
    expect(requests).toEqual([
      { limit: 200, cursor: undefined },
      { limit: 200, cursor: '200' },
      { limit: 200, cursor: '400' },
    ]);
  });

  it('reads one page with its nextCursor for --limit or --cursor', async () => {
    const { requests, fetchPage } = server();
    expect(await readPages({ limit: 3 }, fetchPage)).toEqual({ items: [0, 1, 2], nextCursor: '3' });
    expect(await readPages({ cursor: '440' }, fetchPage)).toEqual({
      items: [440, 441, 442, 443, 444, 445, 446, 447, 448, 449],
      nextCursor: null,
    });
    expect(requests).toEqual([
      { limit: 3, cursor: undefined },
      { limit: 50, cursor: '440' },
    ]);
  });
});

describe(addOnePageOptions.name, () => {
  function parseOne(args: string[]): PageOptions {
    let captured: PageOptions = {};
    addOnePageOptions(new Command('notifications'), 'notifications', 100, 20)
      .exitOverride()
      .configureOutput({ writeErr: () => undefined })
      .action((options: PageOptions) => {
        captured = options;
      })
      .parse(args, { from: 'user' });
    return captured;
  }

  it('asks for the service default page unless --limit says otherwise', () => {
    expect(pageQueryOf(parseOne([]))).toEqual({});
    expect(pageQueryOf(parseOne(['--limit', '5', '--cursor', 'c1']))).toEqual({ limit: 5, cursor: 'c1' });
  });

  it('checks --limit against the maximum of that list', () => {
    expect(parseOne(['--limit', '100']).limit).toBe(100);
    expect(() => parseOne(['--limit', '101'])).toThrow(/1 to 100/);
  });
});
