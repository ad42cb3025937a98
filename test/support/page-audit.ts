import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** The WCAG 2.1 A and AA rules: the level the console and the visitor pages promise. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; summary: string }>;
}

/** A table cell whose text the browser split inside a word, as a reader sees it. */
export interface BrokenWord {
  word: string;
  cell: string;
}

let axeSource: Promise<string> | undefined;

function loadAxe(): Promise<string> {
  const require = createRequire(import.meta.url);
  axeSource ??= readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
}

/** Runs axe-core in the page (and its same-origin frames) and returns the WCAG 2.1 A/AA violations. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const source = await loadAxe();
  // Evaluated through the debugging protocol, so the pages' own Content-Security-Policy, which
  // refuses inline scripts, stays as it is while we audit.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(source);
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<AxeResults> } }).axe;
    interface AxeResults {
      violations: Array<{
        id: string;
        impact: string | null;
        help: string;
        nodes: Array<{ target: string[]; failureSummary?: string }>;
      }>;
    }
    // The reader's watermark is faint on purpose and hidden from assistive technology: it is
    // incidental text, which WCAG 1.4.3 leaves out of the contrast rule.
    const context = { exclude: [['.sd-wm']] };
    const results = await axe.run(context, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => ({ target: node.target, summary: node.failureSummary ?? '' })),
    }));
  }, WCAG_TAGS);
}

/** How far the page reaches past the viewport's right edge (0 when nothing scrolls sideways). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
}

/**
 * Every word in a table cell that the browser laid out on more than one line. Measured on the
 * rendered text rather than read from CSS, so `overflow-wrap`, `word-break`, hyphenation and
 * breaks after `-` or `/` inside a file name all count.
 */
export function wordsBrokenInCells(page: Page): Promise<BrokenWord[]> {
  return page.evaluate(() => {
    const broken: Array<{ word: string; cell: string }> = [];
    for (const cell of document.querySelectorAll('td, th')) {
      if (!(cell instanceof HTMLElement) || cell.offsetParent === null) continue;
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
          if (lines.size > 1) broken.push({ word: match[0], cell: (cell.textContent ?? '').trim().slice(0, 80) });
        }
      }
    }
    return broken;
  });
}
