/**
 * The content types of the files a slide draws (pictures, fonts), by extension: one table for the
 * renderer's routes in Chromium and the page's file routes (a module of its own, so the page's routes do
 * not load the renderer).
 */
export const ASSET_MIME: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.avif': 'image/avif',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
}
