// The web console (docs/console.md): a single-page app built from console/ into
// console/dist by `npm ci` (the root `prepare` script). Served here as static files under
// /console/ with a strict CSP (scripts and styles only from this origin, no inline script);
// any other /console/* path answers the app's index.html, so routes survive a reload.
// The console is a client of the public API only: nothing here reads the core.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Services } from '../services.ts';

export const CONSOLE_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../console/dist');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

/**
 * The console's CSP. `connect-src` names this origin and the object store's origin when
 * signed URLs point elsewhere (S3- or Azure-type stores: the browser PUTs the bytes there);
 * `img-src` allows the same (covers and avatars) plus data: and blob: (canvas snapshots).
 */
export function consoleCsp(storageOrigins: readonly string[]): string {
  const extra = storageOrigins.length ? ` ${storageOrigins.join(' ')}` : '';
  return (
    // 'wasm-unsafe-eval' lets the LAZ decoder compile its WebAssembly (CSP 3); JavaScript eval stays off.
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; font-src 'self'; " +
    `img-src 'self' data: blob:${extra}; connect-src 'self'${extra}; worker-src 'self' blob:; ` +
    "manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
  );
}

/**
 * The origins signed URLs go to besides the service's own: BLOB_PUBLIC_URL (the local-disk
 * store's separate blob origin), STORAGE_PUBLIC_URL, and an S3-type STORAGE_URL's endpoint
 * (docs/storage.md). Without them, local-disk URLs are on PUBLIC_URL.
 */
export function storageOriginsOf(config: Pick<Services['config'], 'storageUrl' | 'storagePublicUrl'> & { blobPublicUrl?: string | undefined }): string[] {
  const out = new Set<string>();
  if (config.blobPublicUrl) out.add(new URL(config.blobPublicUrl).origin);
  if (config.storagePublicUrl) out.add(new URL(config.storagePublicUrl).origin);
  if (config.storageUrl?.startsWith('s3://')) {
    const endpoint = new URL(config.storageUrl.replace(/^s3:/, 'http:')).searchParams.get('endpoint');
    if (endpoint) out.add(new URL(endpoint).origin);
  }
  return [...out];
}

interface Asset {
  file: string;
  type: string;
  immutable: boolean;
}

/** Every file of the build, by its URL path under /console/ (so no request path reaches the file system). */
function assetsOf(dir: string): Map<string, Asset> {
  const out = new Map<string, Asset>();
  if (!fs.existsSync(dir)) return out;
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const rel = path.relative(dir, p).split(path.sep).join('/');
        const type = TYPES[path.extname(e.name)];
        // Vite names the bundles by their content hash: cache them for a year.
        if (type) out.set(rel, { file: p, type, immutable: rel.startsWith('assets/') });
      }
    }
  };
  walk(dir);
  return out;
}

export const consoleRoutes =
  (core: Pick<Services, 'config'>, dist: string = CONSOLE_DIST): FastifyPluginAsync =>
  async (app) => {
    const assets = assetsOf(dist);
    const csp = consoleCsp(storageOriginsOf(core.config));
    const index = assets.get('index.html');

    // The index carries the sandbox flag in a meta tag (the banner; no inline script).
    const indexHtml = index
      ? fs.readFileSync(index.file, 'utf8').replace(
          '<meta name="scanbase-sandbox" content="off">',
          `<meta name="scanbase-sandbox" content="${core.config.sandbox ? 'on' : 'off'}">`,
        )
      : '';

    const send = (reply: FastifyReply, a: Asset) =>
      reply
        .header('content-security-policy', csp)
        .header('x-frame-options', 'DENY')
        .header('referrer-policy', 'no-referrer')
        .header('cache-control', a.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
        .type(a.type)
        .send(a === index ? indexHtml : fs.createReadStream(a.file));

    const answer = async (url: string, reply: FastifyReply) => {
      const rel = decodeURIComponent(url.split('?')[0]!.replace(/^\/console\/?/, ''));
      const asset = assets.get(rel);
      if (asset) return send(reply, asset);
      // A missing bundle file is a 404 (an old page asking for a replaced bundle), not the index.
      if (rel.startsWith('assets/') || !index) {
        return reply
          .code(index ? 404 : 503)
          .header('content-security-policy', "default-src 'none'")
          .type('text/plain; charset=utf-8')
          .send(index ? 'Not found' : 'The console is not built: run `npm run build:console` (npm ci runs it).');
      }
      return send(reply, index);
    };

    app.get('/console', { schema: { hide: true } }, (_req, reply) => reply.redirect('/console/', 302));
    app.get('/console/*', { schema: { hide: true } }, (req, reply) => answer(req.url, reply));
  };
