/**
 * GET /robots.txt: every page may be crawled, and the sitemap (written by @astrojs/sitemap at build)
 * is named with the site's base URL, which crawlers require to be absolute.
 */
import type { APIRoute } from 'astro';
import { siteUrl } from '../config/site.ts';

/** The sitemap @astrojs/sitemap writes: an index of its numbered parts. */
export const SITEMAP_PATH = '/sitemap-index.xml';

export const GET: APIRoute = () => new Response(`User-agent: *\nAllow: /\n\nSitemap: ${siteUrl(SITEMAP_PATH)}\n`, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
