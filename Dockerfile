# syntax=docker/dockerfile:1
# finapi's image: docs/operations.md (Containers) says how to build and run it. Two stages: the build needs the
# development packages, the image holds only the production ones (scripts/container/install.sh, which the test suite
# runs too) and the build.
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/container/ scripts/container/
RUN --mount=type=cache,target=/root/.npm sh scripts/container/install.sh
COPY public/ public/
COPY --from=build /app/dist/ dist/
# The only place the service writes with DATABASE_URL set: DATA_DIR (the log code sender's file).
RUN mkdir data && chown node:node data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 CMD ["node", "scripts/container/healthcheck.mjs"]
STOPSIGNAL SIGTERM
# Node itself is PID 1's program, not npm or a shell: SIGTERM reaches it and starts the graceful shutdown.
CMD ["node", "--max-semi-space-size=16", "--heap-growing-percent=100", "dist/finapi.js"]
