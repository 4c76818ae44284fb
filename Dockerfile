# Stacks Watch: the app and its push relay on one origin (see docs/self-hosting.md).
#   docker build -t stacks-watch .
#   docker run -d --name stacks-watch -p 127.0.0.1:8080:8080 -v stacks-watch-data:/data \
#     -e STACKS_WATCH_PUBLIC_URL=https://watch.example.com -e RELAY_VAPID_SUBJECT=mailto:you@example.com stacks-watch
# With an https STACKS_WATCH_PUBLIC_URL the server refuses to start without a real RELAY_VAPID_SUBJECT (your address:
# Apple's push service refuses the default contact). STACKS_WATCH_PUBLIC_TESTNET_NODE / _MAINNET_NODE name the nodes
# phones are told to use when the ones the relay follows (RELAY_TESTNET_NODE, …) are not reachable from a phone.
# A reverse proxy with TLS (Caddy) in front; the relay's data, VAPID keys included, lives on /data: a named volume, or a
# host folder owned by uid 1000 (the image's `node` user), mode 700.
# Node 24, an LTS line; the server needs Node 20.19 or later (package.json's engines).

FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only: package.json's dependencies are exactly the packages the compiled server imports (the
# app's libraries, React among them, are bundled into dist/ by the build and are devDependencies), so neither tsx, vite
# nor React is installed here (tests/relay/compiled-server.test.ts holds the two lists equal).
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /src/dist ./dist
COPY --from=build /src/build/server ./build/server
RUN mkdir -p /data && chown node:node /data
USER node
ENV STACKS_WATCH_HOST=0.0.0.0 STACKS_WATCH_PORT=8080 RELAY_DATA_DIR=/data
VOLUME /data
EXPOSE 8080
# Liveness of the relay when it runs (the whole process: engine, sender, database handle), else the app itself.
HEALTHCHECK --interval=30s --timeout=5s CMD ["node", "-e", "const at = 'http://127.0.0.1:8080'; fetch(at + '/relay/health/live').then((r) => (r.status === 404 ? fetch(at + '/') : r)).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself is PID 1 (no npm in between), so SIGTERM from `docker stop` reaches the server's own handler.
CMD ["node", "build/server/src/server/main.js"]
