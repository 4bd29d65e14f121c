# steplens server image: build stage (compilers, dev deps, tsc), then a slim runtime
# with production dependencies only, running as the non-root `node` user.
FROM node:24-bookworm-slim AS build
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# `prepare` would build before the sources are here: install without scripts,
# then build the native tree-sitter bindings explicitly.
RUN npm ci --ignore-scripts \
 && npm rebuild tree-sitter tree-sitter-bash tree-sitter-python
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY web ./web
COPY bench ./bench
COPY proto ./proto
COPY data/example ./data/example
COPY data/example-prior.json ./data/example-prior.json
COPY data/forecast.json ./data/forecast.json
RUN npm run build \
 && npm prune --omit=dev

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    STEPLENS_DATA=/data
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/proto ./proto
COPY --from=build /app/data/example ./data/example
COPY --from=build /app/data/example-prior.json ./data/example-prior.json
COPY --from=build /app/data/forecast.json ./data/forecast.json
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8787
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8787/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The bin (scripts/cli-bundle.mjs): `serve` is one file there, ready in about a third of the time dist/src's
# modules take (bench/README.md, serve18).
ENTRYPOINT ["node", "dist/bin/steplens.js"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8787", "--data", "/data"]
