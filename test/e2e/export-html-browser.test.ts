/**
 * The HTML export opened in a real headless Chromium (Debian's `chromium`, driven by
 * playwright-core): hostile text in messages shows as text and runs nothing, the page fetches
 * nothing, fits a phone's width and follows the system's dark mode.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSessions } from '../../src/index.js';
import { ensureChromium } from '../helpers/chromium.js';
import { runPiped } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

const HOSTILE = [
  '<script>window.__pwned = "script"</script>',
  '<img src="x" onerror="window.__pwned = \'img\'">',
  '<link rel="stylesheet" href="http://127.0.0.1:9/evil.css"><iframe src="http://127.0.0.1:9/"></iframe>',
];
/** Markdown that renders, with hostile pieces inside it: script links, a data: page, an image, handlers in a table and a list. */
const HOSTILE_MARKDOWN = [
  '## Steps',
  '',
  '**bold** [js](javascript:window.__pwned=1) [data](data:text/html,<script>window.__pwned=2</script>) ![pixel](http://127.0.0.1:9/pixel.png) <javascript:window.__pwned=6>',
  '',
  '| a | b |',
  '|---|---|',
  '| <img src=x onerror="window.__pwned=3"> | [c](JAVASCRIPT:window.__pwned=4) |',
  '',
  '- item <svg onload="window.__pwned=5"></svg>',
  '- [site](https://example.com/)',
].join('\n');
const LONG_WORD = `https://example.invalid/${'a'.repeat(400)}`;
const CODE = ['Here is code:', '```html', '<button onclick="window.__pwned = 1">x</button>', `const wide = "${'x'.repeat(300)}";`, '```', 'and after it.'].join('\n');

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: ensureChromium(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}, 20 * 60_000);
afterAll(async () => {
  await browser?.close();
});

/** A session holding the hostile messages, exported by the real CLI; the page's file URL. */
async function exportedPage(): Promise<string> {
  const home = tmpHome();
  const cwd = tmpHome('chatkeep-project-');
  const sessions = await openSessions({ home, cwd });
  const session = await sessions.create({ title: '<b>title</b> & more' });
  for (const text of HOSTILE) {
    await session.append({ role: 'user', content: text });
    await session.append({ role: 'assistant', content: `You wrote: ${text}` });
  }
  await session.append({ role: 'user', content: HOSTILE_MARKDOWN });
  await session.append({ role: 'assistant', content: `Rendered:\n\n${HOSTILE_MARKDOWN}` });
  await session.append({ role: 'user', content: LONG_WORD });
  await session.append({ role: 'assistant', content: CODE });
  await session.close();
  const file = join(cwd, 'page.html');
  const run = await runPiped(['sessions', 'export', session.id, '--format', 'html', '-o', file], '', { home, cwd });
  expect(run.stderr).toBe(`Exported ${session.id} (10 messages) as html to ${file}\n`);
  expect(run.code).toBe(0);
  return pathToFileURL(file).href;
}

describe('the HTML export in a browser', () => {
  it('shows hostile text as text, runs no script and fetches nothing', async () => {
    const url = await exportedPage();
    const page = await browser.newPage();
    const requests: string[] = [];
    const dialogs: string[] = [];
    const console: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('console', (message) => console.push(message.text()));
    await page.route('**/*', (route) => (route.request().url() === url ? route.continue() : route.abort()));
    await page.goto(url, { waitUntil: 'load' });

    const text = await page.locator('body').innerText();
    for (const hostile of HOSTILE) expect(text).toContain(hostile);
    expect(text).toContain('<button onclick="window.__pwned = 1">x</button>');
    expect(await page.title()).toBe('<b>title</b> & more');
    expect(await page.locator('h1').innerText()).toBe('<b>title</b> & more');
    // Nothing from the messages became an element.
    expect(await page.locator('main script, main img, main iframe, main link, main button').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(0);
    // The code block is shown as code, highlighted, under its language.
    expect(await page.locator('pre code', { hasText: 'const wide' }).count()).toBe(1);
    expect(await page.locator('.code', { hasText: 'const wide' }).locator('.lang').innerText()).toBe('html');
    expect(await page.locator('pre code', { hasText: 'const wide' }).locator('span[class^="hljs-"]').count()).toBeGreaterThan(0);

    // Markdown is rendered: headings, bold, tables, lists.
    expect(await page.locator('main article h4', { hasText: 'Steps' }).count()).toBe(2);
    expect(await page.locator('main article strong', { hasText: 'bold' }).count()).toBe(2);
    expect(await page.locator('main article table').count()).toBe(2);
    expect(await page.locator('main article li', { hasText: 'item' }).count()).toBe(2);
    // The hostile pieces are text, and no link can run code: every target is http(s) or mailto.
    expect(text).toContain('<img src=x onerror="window.__pwned=3">');
    expect(await page.locator('main svg, main input:not([type=checkbox])').count()).toBe(0);
    const hrefs = await page.locator('main a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs.filter((href) => href !== null && !/^(https?:|mailto:)/.test(href))).toEqual([]);
    expect(hrefs).toContain('https://example.com/');
    expect(hrefs).toContain('http://127.0.0.1:9/pixel.png');
    // Clicking what was a script link does nothing.
    for (const link of await page.locator('main a:not([href])').all()) await link.click();

    await page.locator('footer').click();
    expect(await page.evaluate<unknown>('window.__pwned')).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(console).toEqual([]);
    expect(requests).toEqual([url]);
    await page.close();
  });

  it('fits a phone (375 px) without sideways scrolling, and follows dark mode', async () => {
    const url = await exportedPage();
    const context = await browser.newContext({ viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, isMobile: true });
    const page = await context.newPage();
    await page.goto(url);
    const widths = await page.evaluate<{ scroll: number; client: number }>(
      '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
    );
    expect(widths.client).toBe(375);
    expect(widths.scroll).toBeLessThanOrEqual(375);
    expect(await page.getByText(LONG_WORD).isVisible()).toBe(true);

    const colours = async (scheme: 'light' | 'dark'): Promise<{ background: number; text: number }> => {
      await page.emulateMedia({ colorScheme: scheme });
      const [background, text] = await page.evaluate<string[]>('[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]');
      return { background: luminance(background!), text: luminance(text!) };
    };
    const light = await colours('light');
    const dark = await colours('dark');
    expect(light.background).toBeGreaterThan(0.9);
    expect(light.text).toBeLessThan(0.1);
    expect(dark.background).toBeLessThan(0.1);
    expect(dark.text).toBeGreaterThan(0.7);
    await context.close();
  });
});

/** Relative luminance (0 black … 1 white) of a CSS `rgb(r, g, b)` colour. */
function luminance(css: string): number {
  const [r, g, b] = (css.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((n) => {
    const c = Number(n) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
