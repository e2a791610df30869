# One image for the gateway and every service; the command picks which runs:
#   docker run hangar node services/users/dist/main.bundle.js
# and carries the `hangar` CLI: docker run hangar hangar upload app.apk …
# Build: docker build --build-arg VERSION=… --build-arg VCS_REF=$(git rev-parse HEAD) --build-arg BUILD_DATE=$(date -u +%FT%TZ) -t hangar:… .
# docker-compose.yml and deploy/k8s run it; tests/deploy checks they agree with the code.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
# Every workspace's package.json must be there for npm to resolve the workspace links.
COPY libs libs
COPY services services
COPY clients clients
COPY tests/package.json tests/package.json
# npm install, not npm ci: the lock file lacks other platforms' optional
# packages and npm ci refuses it (see scripts/install-dependencies.mjs); install still follows the lock.
RUN npm install --no-audit --no-fund \
 && npm run build \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
# Owned by root and read-only to the process: the runtime user can write only
# /tmp and the gateway's audit spool (emptyDirs under Kubernetes, where the root
# filesystem is read-only; a named volume under docker compose).
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/libs libs
COPY --from=build /app/services services
COPY --from=build /app/clients clients
# The CLI on the PATH: `docker run hangar hangar upload …` in a CI job.
RUN ln -s /app/clients/cli/bin/hangar.js /usr/local/bin/hangar \
 && mkdir -p /var/lib/hangar/audit-spool && chown 1000:1000 /var/lib/hangar/audit-spool
# Numeric uid:gid of the image's "node" user, so Kubernetes' runAsNonRoot can
# verify it without looking the name up.
USER 1000:1000
EXPOSE 8080 50051 9464
# Last, so a new build date does not invalidate the layers above. The gateway
# serves these at /version.
ARG VERSION=0.0.0-dev
ARG VCS_REF=unknown
ARG BUILD_DATE=1970-01-01T00:00:00Z
ENV HANGAR_VERSION=$VERSION HANGAR_VCS_REF=$VCS_REF HANGAR_BUILD_DATE=$BUILD_DATE
LABEL org.opencontainers.image.title="hangar" \
      org.opencontainers.image.version=$VERSION \
      org.opencontainers.image.revision=$VCS_REF \
      org.opencontainers.image.created=$BUILD_DATE
CMD ["node", "services/gateway/dist/main.bundle.js"]
