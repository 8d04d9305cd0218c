# syntax=docker/dockerfile:1
# Scanbase: the service and its web console (/console); tests, benches and docs are not in the image.
# Build: docker build -t scanbase .      Run: see compose.yaml and docs/deploy.md.

# --- console: the full install (Vite is a development package), then `vite build` ----
FROM node:24.21.0-bookworm-slim AS console
WORKDIR /app
COPY package.json package-lock.json ./
# The workspaces (the SDK the console's types come from, the CLI) are part of the lockfile.
COPY packages ./packages
COPY scripts ./scripts
COPY console ./console
# The LAZ encoder's AssemblyScript source (compiled to WebAssembly by the same step).
COPY src/pointclouds/laz/assembly ./src/pointclouds/laz/assembly
# `npm ci` runs the root `prepare` script, which builds console/ into console/dist and the
# LAZ encoder into src/pointclouds/laz/assembly/encoder.wasm.
RUN npm ci --no-audit --no-fund && test -f console/dist/index.html && test -f src/pointclouds/laz/assembly/encoder.wasm

# --- build: install exactly the lockfile, then drop development packages -------------
FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages ./packages
# `prepare` runs here too; without Vite it says so and builds nothing (the console stage did).
COPY scripts ./scripts
# Native modules come prebuilt in registry packages (argon2). The `node` package (the
# development machines' pinned runtime) is a development package: the image's only Node is
# the base image's, the same version (test/e2e/deploy.test.ts checks they agree).
RUN npm ci --omit=dev --no-audit --no-fund
COPY src ./src
COPY migrations ./migrations
COPY --from=console /app/console/dist ./console/dist
COPY --from=console /app/src/pointclouds/laz/assembly/encoder.wasm /app/src/pointclouds/laz/assembly/encoder.wasm.sha256 ./src/pointclouds/laz/assembly/

# --- run: the installed packages and the sources Node runs directly ------------------
FROM node:24.21.0-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/var/lib/scanbase \
    LOG_LEVEL=info \
    MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=build --chown=root:root /app /app
RUN mkdir -p /var/lib/scanbase && chown node:node /var/lib/scanbase
USER node
VOLUME ["/var/lib/scanbase"]
EXPOSE 8080
# /readyz: database and storage reachable, 503 while draining (docs/operations.md).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# No npm in between: SIGTERM reaches the service itself, which drains and exits.
CMD ["node", "src/main.ts"]
