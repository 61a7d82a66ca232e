# syntax=docker/dockerfile:1
# Tollgate in a container: the single binary is built in Bun's image, then runs on Debian slim as a non-root
# user with its data in the /data volume. See docs/operations.md (Docker).
#
#   docker build -t tollgate .
#   docker run -d --name tollgate -p 3000:3000 -v tollgate-data:/data -e ROOT_PASSWORD='change-me-please' tollgate
#
# scripts/check-dockerfile.ts runs these same stages on a machine without Docker.

ARG BUN_VERSION=1.4.5

# ---- build: the locked runtime dependencies, then `bun scripts/build.ts` (console, migrations, docs embedded)
FROM oven/bun:${BUN_VERSION} AS build
WORKDIR /src
COPY package.json bun.lock bunfig.toml tsconfig.json ./
RUN bun install --frozen-lockfile --production --ignore-scripts
COPY src ./src
COPY scripts ./scripts
COPY docs/api.md ./docs/api.md
RUN bun scripts/build.ts dist/tollgate && ./dist/tollgate version

# ---- runtime: nothing but the binary, a user that owns /data, and Debian's C library
FROM debian:bookworm-slim AS runtime
RUN useradd --system --uid 10001 --user-group --home-dir /data --no-create-home --shell /usr/sbin/nologin tollgate \
 && mkdir -p /data /backups && chown tollgate:tollgate /data /backups && chmod 0700 /data /backups
COPY --from=build /src/dist/tollgate /usr/local/bin/tollgate
USER tollgate
WORKDIR /data
ENV DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=3000 \
    LOG_FORMAT=json
VOLUME /data
EXPOSE 3000
# the binary asks its own /healthz: no curl in the image
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 CMD ["tollgate", "health"]
# SIGTERM drains (SHUTDOWN_GRACE_SECONDS, 30 s): give `docker stop` more than that (docker stop -t 40, or compose's stop_grace_period)
STOPSIGNAL SIGTERM
ENTRYPOINT ["tollgate"]
CMD ["serve"]
