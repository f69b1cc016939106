// @ts-check
import node from '@astrojs/node';
import sitemap from '@astrojs/sitemap';
import { defineConfig } from 'astro/config';
import { loadSiteConfig } from './src/config/site.ts';
import { staticBuild } from './src/integrations/static-build.ts';

const site = loadSiteConfig();

export default defineConfig({
  site: site.base_url,
  output: 'static',
  adapter: node({ mode: 'middleware' }),
  session: false,
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  // The sitemap first: its files are written before ours are precompressed and listed. The receipt
  // page's slots are the server's template, and 404 is no page to crawl.
  integrations: [sitemap({ filter: (page) => !page.includes('/receipt-page-slots') && !page.endsWith('/404/') }), staticBuild()],
  devToolbar: { enabled: false },
  // The CSP allows scripts from 'self' only, so page scripts are always files, never inlined.
  vite: { build: { assetsInlineLimit: (file) => (file.endsWith('.js') ? false : undefined) } },
});
