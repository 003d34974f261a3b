#!/bin/sh
# The production install, in the directory holding package.json and package-lock.json: the Dockerfile's runtime
# stage runs it, and test/production.e2e.spec.ts runs this very file to check what the image would hold.
# Production packages only, exactly as the lock says; optional ones left out too: the embedded PostgreSQL (~100 MB,
# useless where DATABASE_URL is always set) and TypeScript (an optional peer of @nestjs/swagger, needed only to build).
# npm's cache is not cleaned here: the Dockerfile mounts it as a build cache, so it never lands in the image.
set -eu
npm ci --omit=dev --omit=optional --no-audit --no-fund
