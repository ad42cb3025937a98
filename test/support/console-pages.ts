import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { ARTIFACTS } from './browser.js';

export interface DocumentFile {
  name: string;
  content: string;
}

/** Page objects for the console SPA: selectors live here, tests read as user actions. */
export class ConsoleApp {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async goto(path: string): Promise<void> {
    await this.page.goto(`${this.baseUrl}${path}`);
  }

  /**
   * `tall` grows the viewport to the whole page instead of a full-page capture, so the sticky
   * sidebar and top bar are drawn where a user sees them.
   */
  async shot(name: string, tall = false): Promise<void> {
    // Let transitions and lazy chunks finish so the picture shows the settled page.
    await this.page.waitForTimeout(250);
    const viewport = this.page.viewportSize();
    if (tall && viewport) {
      const height = await this.page.evaluate(() => document.documentElement.scrollHeight);
      await this.page.setViewportSize({ width: viewport.width, height: Math.min(2400, Math.max(viewport.height, height)) });
      await this.page.waitForTimeout(150);
    }
    await this.page.screenshot({ path: join(ARTIFACTS, `console-${name}.png`) });
    if (tall && viewport) await this.page.setViewportSize(viewport);
  }

  heading(): Locator {
    return this.page.locator('main h1').first();
  }

  toast(text: string): Locator {
    return this.page.locator('.toast', { hasText: text });
  }

  async nav(test: 'files' | 'shares' | 'validate' | 'trash' | 'tokens' | 'webhooks' | 'account'): Promise<void> {
    const menu = this.page.locator('.menu-button');
    if (await menu.isVisible()) await menu.click();
    await this.page.click(`[data-test="nav-${test}"]`);
  }

  async signUp(email: string, password: string): Promise<void> {
    await this.goto('/register');
    await this.page.fill('#register-email', email);
    await this.page.fill('#register-password', password);
    await this.page.fill('#register-confirm', password);
    await this.page.click('[data-test="register-form"] button[type="submit"]');
    await this.page.waitForURL('**/files');
  }

  async logIn(email: string, password: string): Promise<void> {
    await this.page.fill('#login-email', email);
    await this.page.fill('#login-password', password);
    await this.page.click('[data-test="login-form"] button[type="submit"]');
  }

  async confirm(): Promise<void> {
    await this.page.click('[data-test="confirm-accept"]');
  }

  files(): FilesPage {
    return new FilesPage(this.page);
  }

  shareForm(): ShareFormPage {
    return new ShareFormPage(this.page);
  }
}

export class FilesPage {
  constructor(readonly page: Page) {}

  row(name: string): Locator {
    return this.page.locator(`[data-test="file-table"] tr[data-file-name="${name}"]`);
  }

  scanStatus(name: string): Promise<string | null> {
    return this.row(name).locator('[data-scan-status]').getAttribute('data-scan-status');
  }

  async uploadWithPicker(files: DocumentFile[]): Promise<void> {
    await this.page.setInputFiles(
      '[data-test="upload-input"]',
      files.map((file) => ({ name: file.name, mimeType: 'text/plain', buffer: Buffer.from(file.content) })),
    );
  }

  /** A real drop event carrying File objects, as the browser fires it for a drag from the desktop. */
  async drop(files: DocumentFile[]): Promise<void> {
    await this.page.evaluate((list) => {
      const transfer = new DataTransfer();
      for (const file of list) transfer.items.add(new File([file.content], file.name, { type: 'text/plain' }));
      const zone = document.querySelector('[data-test="drop-zone"]')!;
      for (const type of ['dragenter', 'dragover', 'drop']) {
        zone.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }
    }, files);
  }

  upload(name: string): Locator {
    return this.page.locator(`[data-test="upload-panel"] li[data-upload-name="${name}"]`).last();
  }

  uploadStatus(name: string): Promise<string | null> {
    return this.upload(name).getAttribute('data-upload-status');
  }

  conflictDialog(): Locator {
    return this.page.locator('dialog[open]:has([data-test="conflict-message"])');
  }

  async resolveConflict(choice: 'overwrite' | 'rename' | 'cancel'): Promise<void> {
    await this.page.click(`[data-test="conflict-${choice}"]`);
  }

  async open(name: string): Promise<void> {
    await this.row(name).locator('a').first().click();
    await this.page.waitForURL('**/files/*');
  }

  async trash(name: string): Promise<void> {
    await this.row(name).locator('button.btn-danger').click();
    await this.page.click('[data-test="confirm-accept"]');
  }
}

export class ShareFormPage {
  constructor(readonly page: Page) {}

  async toggle(test: string, on = true): Promise<void> {
    await this.page.setChecked(`[data-test="${test}"]`, on);
  }

  async setPassword(password: string): Promise<void> {
    await this.toggle('sf-password-toggle');
    await this.page.fill('#sf-password', password);
  }

  async setMaxVisits(count: number): Promise<void> {
    await this.toggle('sf-max-visits-toggle');
    await this.page.fill('#sf-max-visits', String(count));
  }

  summary(): Promise<string> {
    return this.page.locator('[data-test="share-summary"]').innerText();
  }

  async submit(): Promise<void> {
    await this.page.click('[data-test="share-submit"]');
  }

  async createdUrl(): Promise<string> {
    await this.page.waitForSelector('[data-test="share-created"]');
    return (await this.page.locator('[data-test="share-created"] [data-test="share-url"]').innerText()).trim();
  }
}
