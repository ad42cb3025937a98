import { InvalidArgumentError, Option, type Command } from 'commander';

/** The largest page the list routes answer. */
export const MAX_PAGE_LIMIT = 200;

export interface PageOptions {
  limit?: number;
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

function pageLimit(max: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || Number(value) > max) {
      throw new InvalidArgumentError(`expected a whole number from 1 to ${max}.`);
    }
    return Number(value);
  };
}

/** `--limit` and `--cursor` on a list command: one page instead of the whole list. */
export function addPageOptions(command: Command, rows: string): Command {
  return command
    .addOption(
      new Option('--limit <n>', `one page of at most n ${rows} (1..${MAX_PAGE_LIMIT}); without it every page is read`).argParser(
        pageLimit(MAX_PAGE_LIMIT),
      ),
    )
    .addOption(new Option('--cursor <cursor>', 'continue after the page that printed this cursor (its nextCursor)'));
}

/**
 * `--limit` and `--cursor` on a list that only ever grows (notifications, activity): one page,
 * newest first, of the service's default size unless `--limit` says otherwise; never every page.
 */
export function addOnePageOptions(command: Command, rows: string, max: number, defaultLimit: number): Command {
  return command
    .addOption(new Option('--limit <n>', `at most n ${rows} (1..${max}, default ${defaultLimit})`).argParser(pageLimit(max)))
    .addOption(new Option('--cursor <cursor>', 'continue after the page that printed this cursor (its nextCursor)'));
}

/** The query of one page: only what the options give, so the service's default size applies. */
export function pageQueryOf(options: PageOptions): PageOptions {
  return {
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
    ...(options.cursor !== undefined ? { cursor: options.cursor } : {}),
  };
}

/**
 * The list as the options ask for it: one page (`--limit` or `--cursor`, answered with its
 * nextCursor), or else every page in turn, read in the largest pages the service answers.
 */
export async function readPages<T>(
  options: PageOptions,
  fetchPage: (limit: number, cursor: string | undefined) => Promise<Page<T>>,
): Promise<{ items: T[]; nextCursor?: string | null }> {
  if (options.limit !== undefined || options.cursor !== undefined) {
    return fetchPage(options.limit ?? 50, options.cursor);
  }
  const items: T[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(MAX_PAGE_LIMIT, cursor);
    items.push(...page.items);
    if (!page.nextCursor) return { items };
    cursor = page.nextCursor;
  }
}
