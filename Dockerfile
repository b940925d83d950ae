# syntax=docker/dockerfile:1
# One image for both processes of the gateway. The default command runs the HTTP API; the worker
# service of docker-compose.yml runs the same image with `node dist/src/main/worker.js`.
# tsc (tsconfig.build.json, rootDir '.') emits src/ -> dist/src, workflows/ -> dist/workflows and
# activities/ -> dist/activities; the worker bundles dist/workflows at start.
ARG NODE_IMAGE=node:20-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# sdk/ is an npm workspace (the merchant SDK): npm ci needs its package.json, not its code.
COPY package.json package-lock.json ./
COPY sdk/package.json ./sdk/
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
COPY package.json package-lock.json ./
COPY sdk/package.json ./sdk/
RUN npm ci --omit=dev && npm cache clean --force
COPY --from=build /app/dist ./dist
# An image runs for money unless told otherwise: production's start-up checks (no sandbox, the http
# bank, an https PUBLIC_BASE_URL, strong secrets) and no loopback webhooks. Staging sets GATEWAY_ENV=staging.
ENV GATEWAY_ENV=production
# The node image's unprivileged user; the application files stay owned by root (read-only to it).
USER node
EXPOSE 3000
CMD ["node", "dist/src/main/api.js"]
